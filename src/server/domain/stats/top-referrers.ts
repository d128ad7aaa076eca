import type { ProjectOverview } from "@/lib/schemas/overview";
import type { Db } from "@/server/db/client";
import { planned } from "@/server/db/prepared-statements";
import { foldCredits } from "@/server/domain/referrals/referral-credits";
import { OPEN_FROM } from "./open-days";
import type { StatsWindow } from "./stats-window";

type TopReferrer = ProjectOverview["topReferrers"][number];

/** Below this many rewards in the window, counting them all is quick (tens of ms). */
const COUNT_ALL_BELOW = 50_000;
/** How many of the project's all-time leaders the bounded walk reads. */
const LEADERS = 200;

/**
 * The referrers with the most rewards claimed in the window (ties by id). A long window of a busy
 * project holds hundreds of thousands of rewards, and counting them all per referrer took 340 ms at a
 * year of 1,000,000. When the window holds most of the project's rewards, its leaders are mostly the
 * all-time ones, and the all-time counters bound the answer first (topReferrersByBound); a shorter
 * share is counted (the walk would mostly give up there).
 */
export async function topReferrers(db: Db, projectId: string, w: StatsWindow, limit: number): Promise<TopReferrer[]> {
  // The closed days' roll-ups and the open days' rewards.
  const [rewards] = await planned<{ inWindow: number; allTime: number }>(db)`
    SELECT (d."inWindow" + h."inWindow")::int AS "inWindow", (d."allTime" + h."allTime")::int AS "allTime" FROM
      (SELECT coalesce(sum("completed") FILTER (WHERE "day" >= ${w.start}::date AND "day" < ${w.end}::date), 0) AS "inWindow",
        coalesce(sum("completed"), 0) AS "allTime"
      FROM "ReferralDay" WHERE "projectId" = ${projectId}) d,
      (SELECT count(*) FILTER (WHERE "claimedAt" >= ${w.start} AND "claimedAt" < ${w.end}) AS "inWindow", count(*) AS "allTime"
      FROM "RewardHistory" WHERE "projectId" = ${projectId} AND "claimedAt" >= ${OPEN_FROM}) h`;
  if (rewards && rewards.inWindow >= COUNT_ALL_BELOW && rewards.inWindow * 2 >= rewards.allTime) {
    const bounded = await topReferrersByBound(db, projectId, w, limit);
    if (bounded) return bounded;
  }
  return countTopReferrers(db, projectId, w, limit);
}

/** Every reward of the window counted per referrer (an index-only scan of RewardHistory's project and claim time). */
export function countTopReferrers(db: Db, projectId: string, w: StatsWindow, limit: number): Promise<TopReferrer[]> {
  return planned<TopReferrer>(db)`
    SELECT u."id" AS "uniqueId", u."clientProvidedId", top."rewards" FROM (
      SELECT "referrerId", count(*)::int AS "rewards" FROM "RewardHistory"
      WHERE "projectId" = ${projectId} AND "claimedAt" >= ${w.start} AND "claimedAt" < ${w.end}
      GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${limit}
    ) top JOIN "AppUser" u ON u."id" = top."referrerId"
    ORDER BY top."rewards" DESC, u."id"`;
}

/**
 * The same answer from the project's `leaders` all-time leaders (successfulReferrals, which counts a
 * referrer's rewards; the leaderboard reads the same index), each one's window counted from its own
 * rewards (read backwards down the counters' index: which of equal leaders come first does not
 * matter). A referrer not read has at most the last leader's all-time count in any window, so the
 * answer stands when its last place has more than that, or when every referrer with a reward was
 * read; else null (the window's leaders are not the all-time ones), and all rewards are counted. The
 * rewards' credits are folded first: a credit not folded would leave its referrer's bound too low.
 */
export async function topReferrersByBound(db: Db, projectId: string, w: StatsWindow, limit: number, leaders = LEADERS): Promise<TopReferrer[] | null> {
  await foldCredits(db, { wait: true });
  const rows = await planned<TopReferrer & { total: number }>(db)`
    SELECT c."appUserId" AS "uniqueId", u."clientProvidedId", c."successfulReferrals" AS "total",
      (SELECT count(*)::int FROM "RewardHistory" h
        WHERE h."referrerId" = c."appUserId" AND h."claimedAt" >= ${w.start} AND h."claimedAt" < ${w.end}) AS "rewards"
    FROM "AppUserCounters" c JOIN "AppUser" u ON u."id" = c."appUserId"
    WHERE c."projectId" = ${projectId} AND c."successfulReferrals" > 0
    ORDER BY c."successfulReferrals" DESC, c."appUserId" DESC LIMIT ${leaders}`;
  const top = rows
    .filter((r) => r.rewards > 0)
    .sort((a, b) => b.rewards - a.rewards || (a.uniqueId < b.uniqueId ? -1 : a.uniqueId > b.uniqueId ? 1 : 0))
    .slice(0, limit)
    .map(({ uniqueId, clientProvidedId, rewards }) => ({ uniqueId, clientProvidedId, rewards }));
  const everyoneRead = rows.length < leaders;
  const unreadAtMost = rows.at(-1)?.total ?? 0;
  return everyoneRead || (top.length === limit && top[limit - 1]!.rewards > unreadAtMost) ? top : null;
}
