"use client";

import { projectPath } from "@/components/projects/paths";
import { EmptyState } from "@/components/ui/empty-state";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { RecognisedId } from "@/components/deliveries/recognised-id";
import { ExportButton, exportUrl } from "@/components/exports/export-button";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { DateRangeFilter, FilterBar, rangeFilter, TextFilter } from "@/components/ui/filter-bar";
import { Pagination, PAGE_SIZES } from "@/components/ui/pagination";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";
import { REFERRAL_STATUSES, ReferralTable } from "./referral-table";

const URL_DEFAULTS = { q: "", status: "all", from: "", to: "", page: "1", pageSize: "20" } as const;
const FILTERS = ["all", ...REFERRAL_STATUSES] as const;
const FILTER_OPTIONS = FILTERS.map((value) => ({ value, label: value === "all" ? "All" : value }));

/**
 * The project's referrals, found by what a customer quotes (a tracking id, or the referrer's or
 * referee's client id, exactly), narrowed by status and creation date; the state is in the URL, and
 * the CSV export takes the same filter.
 */
export function ReferralsOverview({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const chosen = oneOf(url.status, FILTERS, "all");
  const status = chosen === "all" ? undefined : chosen;
  const page = positiveInt(url.page, 1);
  const pageSize = Number(oneOf(url.pageSize, PAGE_SIZES.map(String), "20"));
  const search = url.q.trim();
  const filter = { ...(search ? { search } : {}), ...(status ? { status } : {}), ...rangeFilter(url.from, url.to) };
  const filtered = Object.keys(filter).length > 0;
  const referrals = useQuery({
    ...trpc.referrals.list.queryOptions({ projectId, ...filter, page, pageSize }),
    placeholderData: keepPreviousData,
  });

  return (
    <Card
      title="Referrals"
      description="Every tracked arrival through a referral link, newest first. Paste what the customer quotes: a tracking id, or the referrer's or referee's client id (exactly)."
      actions={<ExportButton label="Export CSV" url={exportUrl(projectId, "referrals", filter)} />}
    >
      <div className="mb-4">
        <FilterBar label="Filter referrals" columns="sm:grid-cols-2" onClear={filtered ? () => setUrl({ q: null, status: null, from: null, to: null, page: null }) : undefined}>
          <TextFilter label="Search" value={search} onChange={(q, mode) => setUrl({ q, page: null }, mode)} placeholder="Tracking id or client id" button />
          <div className="space-y-1.5">
            <span className="block text-sm font-medium text-zinc-800">Status</span>
            <SegmentedControl label="Status" options={FILTER_OPTIONS} value={chosen} onChange={(value) => setUrl({ status: value, page: null })} />
          </div>
          <DateRangeFilter from={url.from} to={url.to} onChange={(range) => setUrl({ ...range, page: null })} />
        </FilterBar>
      </div>
      {referrals.isError && <ErrorMessage>{toFormErrors(referrals.error).message}</ErrorMessage>}
      {referrals.isPending && !referrals.isError && <p className="text-sm text-zinc-500">Loading referrals…</p>}
      {referrals.data && (
        <div className="space-y-3">
          <RecognisedId key={search} projectId={projectId} term={search} parties={referrals.data.items} />
          <ReferralTable
            projectId={projectId}
            caption="Referrals"
            referrals={referrals.data.items}
            stale={referrals.isPlaceholderData}
            empty={
              search ? (
                "Nothing matches this id exactly: check it, or search for the other party's id."
              ) : filtered ? (
                status && Object.keys(filter).length === 1 ? `No ${status.toLowerCase()} referrals.` : "No referrals match these filters."
              ) : (
                <EmptyState href={projectPath(projectId, "campaign")} action="Set up the widget or mobile client">
                  No referrals tracked yet. They appear when someone arrives through a user&apos;s referral link, or when your backend calls referrals/track.
                </EmptyState>
              )
            }
          />
          <Pagination
            label="Referrals"
            page={page}
            pageSize={pageSize}
            totalCount={referrals.data.totalCount}
            totalCountExact={referrals.data.totalCountExact}
            hasNextPage={referrals.data.hasNextPage}
            onPageChange={(next) => setUrl({ page: next })}
            onPageSizeChange={(size) => setUrl({ pageSize: size, page: null })}
          />
        </div>
      )}
    </Card>
  );
}
