import type { LeaderboardEntry } from "@/lib/schemas/stats";
import type { Db } from "@/server/db/client";
import { prepared } from "@/server/db/prepared-statements";
import { foldCredits } from "@/server/domain/referrals/referral-credits";

/**
 * The project's best referrers of all time: a walk down AppUserCounters' (projectId,
 * successfulReferrals) index, stopping after `limit` users with at least one completed referral; each
 * with the highest milestone they reached (one index read on MilestoneReached's key). The rewards'
 * credits are folded first, so every reward committed before the call counts.
 */
export async function getLeaderboard(db: Db, projectId: string, limit: number): Promise<LeaderboardEntry[]> {
  await foldCredits(db, { wait: true });
  return prepared<LeaderboardEntry>(db)`
    SELECT u."clientProvidedId", u."id" AS "uniqueId", c."successfulReferrals", c."totalReferralsGiven",
      (SELECT m."name" FROM "MilestoneReached" m WHERE m."appUserId" = c."appUserId" ORDER BY m."referrals" DESC LIMIT 1) AS "milestone"
    FROM "AppUserCounters" c JOIN "AppUser" u ON u."id" = c."appUserId"
    WHERE c."projectId" = ${projectId} AND c."successfulReferrals" > 0
    ORDER BY c."successfulReferrals" DESC, c."totalReferralsGiven" DESC, c."appUserId"
    LIMIT ${limit}`;
}
