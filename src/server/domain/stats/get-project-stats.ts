import type { ProjectStats } from "@/lib/schemas/stats";
import type { Db } from "@/server/db/client";
import { planned } from "@/server/db/prepared-statements";
import type { StatsWindow } from "./stats-window";

type DayCount = { day: string; count: number };

/**
 * The project's funnel figures over a window of UTC days, each from an index alone (see the
 * migration 20261127072404_insight): tracked by the items' creation, completed by the rewards' claim
 * time, failed by when the item failed (a Failed item is final, so its updatedAt), clicks from the
 * daily click counts (Web projects have no landing page: their link arrivals are the tracked items),
 * deliveries by their creation and present status, test events left out. The caller has checked
 * that the organisation owns the project.
 */
export async function getProjectStats(db: Db, project: { id: string; appType: string }, w: StatsWindow): Promise<ProjectStats> {
  const { id } = project;
  const [tracked, completed, [failed], [clicks], deliveries] = await Promise.all([
    planned<DayCount>(db)`
      SELECT to_char(d, 'YYYY-MM-DD') AS "day", n AS "count" FROM (
        SELECT "createdAt"::date AS d, count(*)::int AS n FROM "ReferralTracking"
        WHERE "projectId" = ${id} AND "status" IN ('Pending', 'Completed', 'Failed') AND "createdAt" >= ${w.start} AND "createdAt" < ${w.end}
        GROUP BY 1) t`,
    planned<DayCount>(db)`
      SELECT to_char(d, 'YYYY-MM-DD') AS "day", n AS "count" FROM (
        SELECT "claimedAt"::date AS d, count(*)::int AS n FROM "RewardHistory"
        WHERE "projectId" = ${id} AND "claimedAt" >= ${w.start} AND "claimedAt" < ${w.end}
        GROUP BY 1) t`,
    planned<{ count: number }>(db)`
      SELECT count(*)::int AS "count" FROM "ReferralTracking"
      WHERE "projectId" = ${id} AND "status" = 'Failed' AND "updatedAt" >= ${w.start} AND "updatedAt" < ${w.end}`,
    planned<{ count: number }>(db)`
      SELECT COALESCE(sum("clicks"), 0)::int AS "count" FROM "LinkClickDay"
      WHERE "projectId" = ${id} AND "day" >= ${w.start}::date AND "day" < ${w.end}::date`,
    planned<{ status: string; count: number }>(db)`
      SELECT "status"::text AS "status", count(*)::int AS "count" FROM "Delivery"
      WHERE "projectId" = ${id} AND "status" IN ('Succeeded', 'Failed') AND "createdAt" >= ${w.start} AND "createdAt" < ${w.end}
        AND "trackingId" IS NOT NULL
      GROUP BY 1`,
  ]);
  const trackedOn = new Map(tracked.map((r) => [r.day, r.count]));
  const completedOn = new Map(completed.map((r) => [r.day, r.count]));
  const daily = w.days.map((date) => ({ date, tracked: trackedOn.get(date) ?? 0, completed: completedOn.get(date) ?? 0 }));
  const sum = (rows: DayCount[]) => rows.reduce((total, r) => total + r.count, 0);
  const delivered = (status: string) => deliveries.find((r) => r.status === status)?.count ?? 0;
  return {
    from: w.from,
    to: w.to,
    totals: {
      clicks: project.appType === "Mobile" ? (clicks?.count ?? 0) : sum(tracked),
      tracked: sum(tracked),
      completed: sum(completed),
      failed: failed?.count ?? 0,
      deliveriesSucceeded: delivered("Succeeded"),
      deliveriesFailed: delivered("Failed"),
    },
    daily,
  };
}
