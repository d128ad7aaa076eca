import type { ProjectOverview } from "@/lib/schemas/overview";
import type { Db } from "@/server/db/client";
import { planned } from "@/server/db/prepared-statements";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { getProjectStats } from "./get-project-stats";
import { OPEN_FROM } from "./open-days";
import { previousWindow, type StatsWindow } from "./stats-window";
import { topReferrers } from "./top-referrers";

const TOP_REFERRERS = 10;

/**
 * What the dashboard's project overview shows for a window of days: the funnel figures and daily
 * series (getProjectStats) and the totals of the period of the same length before, to compare with, reward events by name (claimed, or not with the reasons), the referrers
 * with the most rewards claimed in the window (topReferrers), and webhook health. Every query reads a
 * daily roll-up (migration 20261127120000_overview_day_rollups) with the open days' rows (OPEN_FROM),
 * an index only (20261127072404_insight) or a few hundred rows, and they run side by side.
 */
export async function getProjectOverview(db: Db, organizationId: string, projectId: string, w: StatsWindow): Promise<ProjectOverview> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const [stats, previous, events, top, [attempts], [retrying], [failedWaiting], [disabled]] = await Promise.all([
    getProjectStats(db, project, w),
    getProjectStats(db, project, previousWindow(w)),
    // The daily roll-up ('' stands for no name, no reason), and the open days' Claimed events.
    planned<{ eventName: string; outcome: string; reason: string; count: number }>(db)`
      SELECT "eventName", "outcome", "reason", sum("count")::int AS "count" FROM (
        SELECT "eventName", "outcome"::text AS "outcome", "reason", "count" FROM "RewardEventDay"
        WHERE "projectId" = ${project.id} AND "day" >= ${w.start}::date AND "day" < ${w.end}::date
        UNION ALL
        SELECT COALESCE("eventName", ''), 'Claimed', '', count(*) FROM "RewardEvent"
        WHERE "projectId" = ${project.id} AND "outcome" = 'Claimed'
          AND "createdAt" >= greatest(${w.start}::timestamp, ${OPEN_FROM}) AND "createdAt" < ${w.end} GROUP BY 1
      ) events
      GROUP BY 1, 2, 3 HAVING sum("count") <> 0`,
    topReferrers(db, project.id, w, TOP_REFERRERS),
    planned<{ attempts: number; succeeded: number; p50: number | null; p95: number | null }>(db)`
      SELECT count(*)::int AS "attempts", count(*) FILTER (WHERE "success")::int AS "succeeded",
        percentile_disc(0.5) WITHIN GROUP (ORDER BY "responseTimeMs") AS "p50",
        percentile_disc(0.95) WITHIN GROUP (ORDER BY "responseTimeMs") AS "p95"
      FROM "DeliveryAttempt" WHERE "projectId" = ${project.id} AND "createdAt" >= ${w.start} AND "createdAt" < ${w.end}`,
    // Waiting now, whenever created: retries not yet sent, and failures not retried since (index-only).
    planned<{ count: number }>(db)`
      SELECT count(*)::int AS "count" FROM "Delivery" WHERE "projectId" = ${project.id} AND "status" = 'Pending' AND "attemptCount" > 0`,
    planned<{ count: number }>(db)`SELECT count(*)::int AS "count" FROM "Delivery" WHERE "projectId" = ${project.id} AND "status" = 'Failed'`,
    planned<{ count: number }>(db)`SELECT count(*)::int AS "count" FROM "Webhook" WHERE "projectId" = ${project.id} AND NOT "enabled"`,
  ]);

  const byName = new Map<string, ProjectOverview["rewardEvents"][number]>();
  for (const row of events) {
    const name = row.eventName;
    const entry = byName.get(name) ?? { eventName: name, claimed: 0, refused: 0, reasons: [] };
    if (row.outcome === "Claimed") entry.claimed += row.count;
    else {
      entry.refused += row.count;
      const reason = row.reason || "unknown";
      const known = entry.reasons.find((r) => r.reason === reason);
      if (known) known.count += row.count;
      else entry.reasons.push({ reason, count: row.count });
    }
    byName.set(name, entry);
  }
  const rewardEvents = [...byName.values()]
    .map((e) => ({ ...e, reasons: e.reasons.sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)) }))
    .sort((a, b) => b.claimed + b.refused - (a.claimed + a.refused) || a.eventName.localeCompare(b.eventName));

  return {
    ...stats,
    previous: { from: previous.from, to: previous.to, totals: previous.totals },
    appType: project.appType,
    rewardEvents,
    topReferrers: top,
    webhookHealth: {
      attempts: attempts?.attempts ?? 0,
      succeeded: attempts?.succeeded ?? 0,
      successRate: attempts?.attempts ? attempts.succeeded / attempts.attempts : null,
      p50Ms: attempts?.p50 ?? null,
      p95Ms: attempts?.p95 ?? null,
      retrying: retrying?.count ?? 0,
      failedWaiting: failedWaiting?.count ?? 0,
      disabledWebhooks: disabled?.count ?? 0,
    },
  };
}
