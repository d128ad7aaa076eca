"use client";

import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { count, rate } from "./format";
import { RangePicker } from "./range-picker";
import { useRange } from "./use-range";

/** Every project's headline figures over the same range, side by side. */
export function OrganizationOverview() {
  const trpc = useTRPC();
  const range = useRange();
  // As on a project's overview: a range the server would refuse is not asked for, the last figures stay.
  const overview = useQuery({
    ...trpc.stats.organizationOverview.queryOptions({ from: range.from, to: range.to }),
    placeholderData: keepPreviousData,
    enabled: !range.problem,
  });
  const projects = overview.data?.projects ?? [];
  if (overview.data && !projects.length) return null;
  return (
    <Card title="Overview" description={overview.data ? `Each project from ${overview.data.from} to ${overview.data.to} (UTC).` : "Each project's figures."}>
      <div className="mb-4">
        <RangePicker range={range} />
      </div>
      {overview.isError && <ErrorMessage>{toFormErrors(overview.error).message}</ErrorMessage>}
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {projects.map((p) => (
          <section key={p.projectId} aria-label={p.name} className="rounded-lg border border-zinc-200 px-4 py-3">
            <h3 className="mb-2 font-medium">
              <Link href={`/dashboard/projects/${p.projectId}`} className="text-brand-700 hover:underline">
                {p.name}
              </Link>
              <span className="ml-2 text-xs font-normal text-zinc-500">{p.appType}</span>
            </h3>
            <dl className="grid grid-cols-3 gap-2 text-sm">
              {(
                [
                  ["Clicks", p.totals.clicks, null],
                  ["Tracked", p.totals.tracked, null],
                  ["Completed", p.totals.completed, rate(p.totals.completed, p.totals.tracked)],
                  ["Failed", p.totals.failed, null],
                  ["Delivered", p.totals.deliveriesSucceeded, null],
                  ["Not delivered", p.totals.deliveriesFailed, null],
                ] as const
              ).map(([label, value, extra]) => (
                <div key={label}>
                  <dt className="text-xs text-zinc-500">{label}</dt>
                  <dd className="font-semibold tabular-nums text-zinc-900">
                    {count(value)}
                    {extra && <span className="ml-1 text-xs font-normal text-zinc-500">{extra}</span>}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Card>
  );
}
