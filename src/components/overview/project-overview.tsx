"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ExportButton, exportUrl } from "@/components/exports/export-button";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { DailyChart } from "./daily-chart";
import { change, count } from "./format";
import { Funnel } from "./funnel";
import { RangePicker } from "./range-picker";
import { RewardEvents } from "./reward-events";
import { TopReferrers } from "./top-referrers";
import { useRange } from "./use-range";
import { WebhookHealth } from "./webhook-health";

/** The page a project opens on: what its referral program produced over a range of days. */
export function ProjectOverview({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const range = useRange();
  // A range the server would refuse is not asked for (the picker says why): the last figures stay.
  const overview = useQuery({
    ...trpc.stats.projectOverview.queryOptions({ projectId, from: range.from, to: range.to }),
    placeholderData: keepPreviousData,
    enabled: !range.problem,
  });
  const data = overview.data;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <RangePicker range={range} />
        <p className="text-sm text-zinc-600" data-testid="range-shown">
          {/* The range of the figures shown, which may be the last one while the next loads; "Loading…" only before any. */}
          {data ? `${data.from} to ${data.to} (UTC)` : overview.isLoading && "Loading…"}
          {overview.isFetching && data && <span className="ml-2 text-xs text-zinc-500">Updating…</span>}
        </p>
      </div>
      {overview.isError && <ErrorMessage>{toFormErrors(overview.error).message}</ErrorMessage>}
      {data && (
        <>
          <p className="text-xs text-zinc-500">
            Compared with the {data.previous.from === data.previous.to ? "day" : "period of the same length"} before: {data.previous.from} to {data.previous.to}.
          </p>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Totals">
            {(
              [
                ["Clicks", "clicks"],
                ["Tracked", "tracked"],
                ["Completed", "completed"],
                ["Failed", "failed"],
                ["Deliveries succeeded", "deliveriesSucceeded"],
                ["Deliveries failed", "deliveriesFailed"],
              ] as const
            ).map(([label, key]) => (
              <div key={label} className="rounded-lg border border-zinc-200 bg-white px-4 py-3 shadow-sm">
                <dt className="text-xs text-zinc-500">{label}</dt>
                <dd className="text-2xl font-semibold tabular-nums text-zinc-900" data-testid={`total-${label.toLowerCase().replace(/ /g, "-")}`}>
                  {count(data.totals[key])}
                </dd>
                <dd className="text-xs text-zinc-500" data-testid={`previous-${label.toLowerCase().replace(/ /g, "-")}`}>
                  {change(data.totals[key], data.previous.totals[key])} (was {count(data.previous.totals[key])})
                </dd>
              </div>
            ))}
          </dl>
          <div className="grid gap-6 lg:grid-cols-2">
            <Card title="Funnel" description="Referrals, step by step: from a click on a referral link to the webhook that tells your backend.">
              <Funnel totals={data.totals} previous={data.previous} appType={data.appType} />
            </Card>
            <Card title="Referrals per day" description="Tracked (arrivals) and completed (rewards claimed), by UTC day.">
              <DailyChart daily={data.daily} />
            </Card>
            <Card title="Reward events" description="Each reported event by name: claimed, or not and why.">
              <RewardEvents events={data.rewardEvents} />
            </Card>
            <Card
              title="Top referrers"
              description="Most rewards claimed in the range."
              actions={
                <Link href={`/dashboard/projects/${projectId}/leaderboard`} className="text-sm text-brand-700 hover:underline">
                  Full leaderboard
                </Link>
              }
            >
              <TopReferrers projectId={projectId} referrers={data.topReferrers} />
            </Card>
            <Card title="Webhook health" description="Attempts in the range; what waits, now.">
              <WebhookHealth projectId={projectId} health={data.webhookHealth} />
            </Card>
            <Card title="Exports" description="Everything, as CSV; the tables export what their filters show.">
              <ul className="space-y-2">
                <li>
                  <ExportButton label="Download app users" url={exportUrl(projectId, "app-users")} />
                </li>
                <li>
                  <ExportButton label="Download referrals" url={exportUrl(projectId, "referrals")} />
                </li>
                <li>
                  <ExportButton label="Download deliveries" url={exportUrl(projectId, "deliveries")} />
                </li>
              </ul>
            </Card>
          </div>
        </>
      )}
    </div>
  );
}
