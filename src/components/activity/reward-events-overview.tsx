"use client";

import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AppUserLink } from "@/components/app-users/app-user-link";
import { referralPath } from "@/components/deliveries/paths";
import { RecognisedId } from "@/components/deliveries/recognised-id";
import { FailureReason } from "@/components/referrals/referral-table";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { DateRangeFilter, FilterBar, rangeFilter, SelectFilter, TextFilter } from "@/components/ui/filter-bar";
import { Pagination, PAGE_SIZES } from "@/components/ui/pagination";
import { toFormErrors } from "@/lib/errors";
import { REWARD_EVENT_OUTCOMES } from "@/lib/schemas/referrals";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";
import { ActivityViews } from "./activity-views";

type RewardEvent = RouterOutputs["referrals"]["listRewardEvents"]["items"][number];

const URL_DEFAULTS = { q: "", event: "", outcome: "", from: "", to: "", page: "1", pageSize: "20" } as const;
const OUTCOME_TONES: Record<RewardEvent["outcome"], BadgeTone> = { Claimed: "green", Rejected: "red", Recorded: "neutral" };
const OUTCOME_LABELS: Record<RewardEvent["outcome"], string> = { Claimed: "Claimed", Rejected: "Refused", Recorded: "Recorded, waiting" };

function Party({ projectId, clientId, uniqueId }: { projectId: string; clientId: string | null; uniqueId: string | null }) {
  return clientId ? <AppUserLink projectId={projectId} clientProvidedId={clientId} uniqueId={uniqueId ?? undefined} /> : <span className="text-zinc-500">—</span>;
}

function columns(projectId: string): Column<RewardEvent>[] {
  return [
    { id: "time", header: "Reported", cell: (e) => <DateTime iso={e.at} seconds /> },
    { id: "event", header: "Event", cell: (e) => (e.eventName ? <code className="font-mono text-xs break-all">{e.eventName}</code> : <span className="text-zinc-500">—</span>) },
    {
      id: "outcome",
      header: "Outcome",
      cell: (e) => (
        <span className="block space-y-1">
          <Badge tone={OUTCOME_TONES[e.outcome]}>{OUTCOME_LABELS[e.outcome]}</Badge>
          {e.reason && <FailureReason reason={e.reason} />}
        </span>
      ),
    },
    {
      id: "tracking",
      header: "Referral",
      cell: (e) =>
        e.trackingId ? (
          <Link href={referralPath(projectId, e.trackingId)} className="font-mono text-xs text-brand-700 hover:underline" aria-label={`Referral ${e.trackingId}`} title={e.trackingId}>
            {e.trackingId.slice(0, 8)}…
          </Link>
        ) : (
          <span className="text-zinc-500">—</span>
        ),
    },
    { id: "referrer", header: "Referrer", cell: (e) => <Party projectId={projectId} clientId={e.referrerId} uniqueId={e.referrerUniqueId} /> },
    { id: "referee", header: "Referee", cell: (e) => <Party projectId={projectId} clientId={e.refereeId} uniqueId={e.refereeUniqueId} /> },
    { id: "environment", header: "Environment", secondary: true, cell: (e) => e.environment ?? <span className="text-zinc-500">any</span> },
  ];
}

/**
 * Every reward event reported in the project, newest first: was the event reported at all, under
 * which name, and what came of it (claimed, or refused and why). Found by a tracking id or a party's
 * client id, by event name, outcome and date; the state is in the URL.
 */
export function RewardEventsOverview({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const page = positiveInt(url.page, 1);
  const pageSize = Number(oneOf(url.pageSize, PAGE_SIZES.map(String), "20"));
  const outcome = oneOf(url.outcome, ["", ...REWARD_EVENT_OUTCOMES] as const, "");
  const search = url.q.trim();
  const event = url.event.trim();
  const filter = { ...(search ? { search } : {}), ...(event ? { event } : {}), ...(outcome ? { outcome } : {}), ...rangeFilter(url.from, url.to) };
  const filtered = Object.keys(filter).length > 0;
  const events = useQuery({ ...trpc.referrals.listRewardEvents.queryOptions({ projectId, ...filter, page, pageSize }), placeholderData: keepPreviousData });

  return (
    <>
      <ActivityViews projectId={projectId} />
      <Card
        title="Reward events"
        description="Every reward event your backend, the client library or an inbound hook reported, newest first, with what came of it. Paste a tracking id or a client id (exactly) to see one referral's or one user's."
      >
        <div className="mb-4">
          <FilterBar
            label="Filter reward events"
            columns="sm:grid-cols-2 lg:grid-cols-3"
            onClear={filtered ? () => setUrl({ q: null, event: null, outcome: null, from: null, to: null, page: null }) : undefined}
          >
            <TextFilter label="Search" value={search} onChange={(q, mode) => setUrl({ q, page: null }, mode)} placeholder="Tracking id or client id" button />
            <TextFilter label="Event" value={event} onChange={(value, mode) => setUrl({ event: value, page: null }, mode)} placeholder="Any" hint="Exactly, case-sensitive." />
            <SelectFilter
              label="Outcome"
              value={outcome}
              options={REWARD_EVENT_OUTCOMES.map((value) => ({ value, label: OUTCOME_LABELS[value] }))}
              allLabel="All outcomes"
              onChange={(value) => setUrl({ outcome: value, page: null })}
            />
            <DateRangeFilter from={url.from} to={url.to} onChange={(range) => setUrl({ ...range, page: null })} />
          </FilterBar>
        </div>
        {events.isError && <ErrorMessage>{toFormErrors(events.error).message}</ErrorMessage>}
        {events.isPending && !events.isError && <p className="text-sm text-zinc-500">Loading reward events…</p>}
        {events.data && (
          <div className="space-y-3">
            <RecognisedId key={search} projectId={projectId} term={search} parties={events.data.items} />
            <DataTable
              caption="Reward events"
              columns={columns(projectId)}
              rows={events.data.items}
              rowKey={(e) => e.id}
              stale={events.isPlaceholderData}
              empty={
                search
                  ? "No reward event was reported for this id: check it, or search for the other party's id."
                  : filtered
                    ? "No reward events match these filters."
                    : "No reward events yet. They appear when your backend calls referrals/reward (or the client library or an inbound hook reports one)."
              }
            />
            <Pagination
              label="Reward events"
              page={page}
              pageSize={pageSize}
              totalCount={events.data.totalCount}
              hasNextPage={events.data.hasNextPage}
              onPageChange={(next) => setUrl({ page: next })}
              onPageSizeChange={(size) => setUrl({ pageSize: size, page: null })}
            />
          </div>
        )}
      </Card>
    </>
  );
}
