import type { ProjectStats } from "@/lib/schemas/stats";
import type { Db } from "@/server/db/client";
import { planned } from "@/server/db/prepared-statements";
import { OPEN_FROM } from "./open-days";
import type { StatsWindow } from "./stats-window";

type Day = { day: string; tracked: number; completed: number; failed: number };

/**
 * The project's funnel figures over a window of UTC days: tracked by the items' creation, completed
 * by the rewards' claim time, failed by when the item failed, from the daily roll-up (ReferralDay:
 * a few rows per day whatever the project's size) and, on the open days, the rows; clicks from the daily counts of
 * link clicks (the landing page's; a referral tracked by any other way is no click, so a Web project
 * counts none); deliveries by their creation and present status, test events left out, from two
 * index-only scans (every delivery, then the tests' partial index); referrals delivered: the referrals
 * with a succeeded delivery created in the range, each once however many webhooks it went to (one
 * index range, one look-up per succeeded delivery). The caller has checked that the organisation owns
 * the project.
 */
export async function getProjectStats(db: Db, project: { id: string; appType: string }, w: StatsWindow): Promise<ProjectStats> {
  const { id } = project;
  const [days, [clicks], deliveries, [referralsDelivered]] = await Promise.all([
    planned<Day>(db)`
      SELECT to_char("day", 'YYYY-MM-DD') AS "day", sum("tracked")::int AS "tracked", sum("completed")::int AS "completed", sum("failed")::int AS "failed"
      FROM (
        SELECT "day", "tracked", "completed", "failed" FROM "ReferralDay" WHERE "projectId" = ${id} AND "day" >= ${w.start}::date AND "day" < ${w.end}::date
        UNION ALL
        SELECT "createdAt"::date, count(*), 0, 0 FROM "ReferralTracking"
        WHERE "projectId" = ${id} AND "createdAt" >= greatest(${w.start}::timestamp, ${OPEN_FROM}) AND "createdAt" < ${w.end} GROUP BY 1
        UNION ALL
        SELECT "claimedAt"::date, 0, count(*), 0 FROM "RewardHistory"
        WHERE "projectId" = ${id} AND "claimedAt" >= greatest(${w.start}::timestamp, ${OPEN_FROM}) AND "claimedAt" < ${w.end} GROUP BY 1
      ) days
      GROUP BY "day"`,
    planned<{ count: number }>(db)`
      SELECT COALESCE(sum("clicks"), 0)::int AS "count" FROM "LinkClickDay"
      WHERE "projectId" = ${id} AND "day" >= ${w.start}::date AND "day" < ${w.end}::date`,
    planned<{ status: string; count: number }>(db)`
      SELECT "status"::text AS "status", count(*)::int AS "count" FROM "Delivery"
      WHERE "projectId" = ${id} AND "status" IN ('Succeeded', 'Failed') AND "createdAt" >= ${w.start} AND "createdAt" < ${w.end}
      GROUP BY 1
      UNION ALL
      SELECT "status"::text, -count(*)::int FROM "Delivery"
      WHERE "projectId" = ${id} AND "status" IN ('Succeeded', 'Failed') AND "createdAt" >= ${w.start} AND "createdAt" < ${w.end} AND "trackingId" IS NULL
      GROUP BY 1`,
    planned<{ count: number }>(db)`
      SELECT count(DISTINCT "trackingId")::int AS "count" FROM "Delivery"
      WHERE "projectId" = ${id} AND "status" = 'Succeeded' AND "createdAt" >= ${w.start} AND "createdAt" < ${w.end} AND "trackingId" IS NOT NULL`,
  ]);
  const byDay = new Map(days.map((d) => [d.day, d]));
  const daily = w.days.map((date) => ({ date, tracked: byDay.get(date)?.tracked ?? 0, completed: byDay.get(date)?.completed ?? 0 }));
  const total = (key: "tracked" | "completed" | "failed") => days.reduce((sum, d) => sum + d[key], 0);
  const delivered = (status: string) => deliveries.reduce((sum, r) => (r.status === status ? sum + r.count : sum), 0);
  return {
    from: w.from,
    to: w.to,
    totals: {
      clicks: clicks?.count ?? 0,
      tracked: total("tracked"),
      completed: total("completed"),
      failed: total("failed"),
      deliveriesSucceeded: delivered("Succeeded"),
      deliveriesFailed: delivered("Failed"),
      referralsDelivered: referralsDelivered?.count ?? 0,
    },
    daily,
  };
}
