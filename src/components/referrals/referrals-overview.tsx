"use client";

import { projectPath } from "@/components/projects/paths";
import { EmptyState } from "@/components/ui/empty-state";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ExportButton, exportUrl } from "@/components/exports/export-button";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { Pagination, PAGE_SIZES } from "@/components/ui/pagination";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";
import { REFERRAL_STATUSES, ReferralTable } from "./referral-table";

const URL_DEFAULTS = { status: "all", page: "1", pageSize: "20" } as const;
const FILTERS = ["all", ...REFERRAL_STATUSES] as const;
const FILTER_OPTIONS = FILTERS.map((value) => ({ value, label: value === "all" ? "All" : value }));

export function ReferralsOverview({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const status = oneOf(url.status, FILTERS, "all");
  const page = positiveInt(url.page, 1);
  const pageSize = Number(oneOf(url.pageSize, PAGE_SIZES.map(String), "20"));
  const referrals = useQuery({
    ...trpc.referrals.list.queryOptions({ projectId, status: status === "all" ? undefined : status, page, pageSize }),
    placeholderData: keepPreviousData,
  });

  return (
    <Card title="Referrals" description="Every tracked arrival through a referral link, newest first.">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <SegmentedControl label="Status" options={FILTER_OPTIONS} value={status} onChange={(value) => setUrl({ status: value, page: null })} />
        <ExportButton label="Export CSV" url={exportUrl(projectId, "referrals", { status: status === "all" ? undefined : status })} />
        {referrals.isFetching && (
          <span role="status" className="text-xs text-zinc-500">
            Loading…
          </span>
        )}
      </div>
      {referrals.isError && <ErrorMessage>{toFormErrors(referrals.error).message}</ErrorMessage>}
      {referrals.isPending && !referrals.isError && <p className="text-sm text-zinc-500">Loading referrals…</p>}
      {referrals.data && (
        <>
          <ReferralTable
            projectId={projectId}
            caption="Referrals"
            referrals={referrals.data.items}
            stale={referrals.isPlaceholderData}
            empty={
              status === "all" ? (
                <EmptyState href={projectPath(projectId, "campaign")} action="Set up the widget or mobile client">
                  No referrals tracked yet. They appear when someone arrives through a user&apos;s referral link, or when your backend calls referrals/track.
                </EmptyState>
              ) : (
                `No ${status.toLowerCase()} referrals.`
              )
            }
          />
          <Pagination
            label="Referrals"
            page={page}
            pageSize={pageSize}
            totalCount={referrals.data.totalCount}
            hasNextPage={page * pageSize < referrals.data.totalCount}
            onPageChange={(next) => setUrl({ page: next })}
            onPageSizeChange={(size) => setUrl({ pageSize: size, page: null })}
          />
        </>
      )}
    </Card>
  );
}
