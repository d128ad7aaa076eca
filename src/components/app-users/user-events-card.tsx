"use client";

import { useQuery } from "@tanstack/react-query";
import { ActivityTypeBadge } from "@/components/activity/activity-type-badge";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { toFormErrors } from "@/lib/errors";
import { formatDateTime, withReadableDates } from "@/lib/format";
import { useTRPC } from "@/lib/trpc";

const LIMIT = 50;

/** The user's timeline, newest first. */
export function UserEventsCard({ projectId, uniqueId }: { projectId: string; uniqueId: string }) {
  const trpc = useTRPC();
  const events = useQuery(trpc.appUsers.listEvents.queryOptions({ projectId, uniqueId, limit: LIMIT }));
  return (
    <Card title="Events" description={`The latest ${LIMIT} events of this user, newest first.`}>
      {events.isError && <ErrorMessage>{toFormErrors(events.error).message}</ErrorMessage>}
      {events.isPending && !events.isError && <p className="text-sm text-zinc-500">Loading events…</p>}
      {events.data &&
        (events.data.length === 0 ? (
          <p className="text-sm text-zinc-500">No events yet.</p>
        ) : (
          <ol aria-label="Events" className="divide-y divide-zinc-100">
            {events.data.map((event) => (
              <li key={event.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2.5 text-sm">
                <time dateTime={event.createdAt} className="w-40 shrink-0 text-zinc-500">
                  {formatDateTime(event.createdAt)}
                </time>
                <ActivityTypeBadge type={event.type} />
                <span className="min-w-0 flex-1 text-zinc-800 wrap-anywhere">{withReadableDates(event.description)}</span>
              </li>
            ))}
          </ol>
        ))}
    </Card>
  );
}
