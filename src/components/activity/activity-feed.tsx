"use client";

import { projectPath } from "@/components/projects/paths";
import { EmptyState } from "@/components/ui/empty-state";
import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { appUserPath } from "@/components/app-users/paths";
import { RecognisedId } from "@/components/deliveries/recognised-id";
import { referralPath } from "@/components/deliveries/paths";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { FilterBar, SelectFilter, TextFilter } from "@/components/ui/filter-bar";
import { Pagination, PAGE_SIZES } from "@/components/ui/pagination";
import { toFormErrors } from "@/lib/errors";
import { withReadableDates } from "@/lib/format";
import { ACTIVITY_TYPE_LABELS, ACTIVITY_TYPES } from "@/lib/schemas/activity";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";
import { ActivityTypeBadge } from "./activity-type-badge";
import { ActivityViews } from "./activity-views";

type Activity = RouterOutputs["activity"]["list"]["items"][number];

const URL_DEFAULTS = { q: "", type: "", page: "1", pageSize: "20" } as const;
const TYPE_OPTIONS = ACTIVITY_TYPES.map((value) => ({ value, label: ACTIVITY_TYPE_LABELS[value] }));
const link = "whitespace-nowrap font-medium text-brand-700 hover:underline";

function columns(projectId: string): Column<Activity>[] {
  return [
    { id: "time", header: "Time", cell: (a) => <DateTime iso={a.createdAt} seconds /> },
    { id: "type", header: "Type", cell: (a) => <ActivityTypeBadge type={a.type} /> },
    { id: "description", header: "Description", className: "text-zinc-800", cell: (a) => withReadableDates(a.description) },
    {
      id: "links",
      header: "Open",
      cell: (a) =>
        a.appUserId || a.trackingId ? (
          <span className="flex flex-col gap-1">
            {a.trackingId && (
              <Link href={referralPath(projectId, a.trackingId)} className={link} title={a.trackingId}>
                View referral
              </Link>
            )}
            {a.appUserId && (
              <Link href={appUserPath(projectId, a.appUserId)} className={link}>
                View user
              </Link>
            )}
          </span>
        ) : (
          <span className="text-zinc-500">—</span>
        ),
    },
  ];
}

/** What happened in the project, newest first: found by an id a customer quotes or by words, and by type; the state is in the URL. */
export function ActivityFeed({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const page = positiveInt(url.page, 1);
  const pageSize = Number(oneOf(url.pageSize, PAGE_SIZES.map(String), "20"));
  const type = oneOf(url.type, ["", ...ACTIVITY_TYPES] as const, "");
  const search = url.q.trim();
  const filtered = Boolean(search || type);
  const feed = useQuery({
    ...trpc.activity.list.queryOptions({ projectId, ...(search ? { search } : {}), ...(type ? { type } : {}), page, pageSize }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <ActivityViews projectId={projectId} />
      <Card title="Activity" description="What happened in this project, newest first.">
        <div className="mb-4">
          <FilterBar label="Filter activity" columns="sm:grid-cols-2" onClear={filtered ? () => setUrl({ q: null, type: null, page: null }) : undefined}>
            <TextFilter
              label="Search"
              value={search}
              onChange={(q, mode) => setUrl({ q, page: null }, mode)}
              placeholder="Tracking id, client id or words"
              hint="An id exactly (a referral's entries, or a user's and their referrals'); any other text is found in the descriptions."
            />
            <SelectFilter label="Type" value={type} options={TYPE_OPTIONS} allLabel="All types" onChange={(v) => setUrl({ type: v, page: null })} />
          </FilterBar>
        </div>
        {feed.isError && <ErrorMessage>{toFormErrors(feed.error).message}</ErrorMessage>}
        {feed.isPending && !feed.isError && <p className="text-sm text-zinc-500">Loading activity…</p>}
        {feed.data && (
          <div className="space-y-3">
            <RecognisedId key={search} projectId={projectId} term={search} parties={[]} />
            <DataTable
              caption="Activity"
              columns={columns(projectId)}
              rows={feed.data.items}
              rowKey={(a) => a.id}
              stale={feed.isPlaceholderData}
              empty={
                filtered ? (
                  "No activity matches these filters."
                ) : (
                  <EmptyState href={projectPath(projectId, "campaign")} action="Start with the set-up on the Campaign page">
                    No activity yet. New app users, referrals and rewards show up here as they happen.
                  </EmptyState>
                )
              }
            />
            <Pagination
              label="Activity"
              page={page}
              pageSize={pageSize}
              totalCount={feed.data.totalCount}
              hasNextPage={feed.data.hasNextPage}
              onPageChange={(next) => setUrl({ page: next })}
              onPageSizeChange={(size) => setUrl({ pageSize: size, page: null })}
            />
          </div>
        )}
      </Card>
    </>
  );
}
