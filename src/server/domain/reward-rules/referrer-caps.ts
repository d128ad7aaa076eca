import type { Prisma } from "@/generated/prisma/client";
import type { ReferrerCaps } from "@/lib/schemas/reward-rules";

type Queryable = Pick<Prisma.TransactionClient, "$queryRaw">;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day and UTC calendar month `now` falls in, as [start, end). */
export function capWindows(now: Date) {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { day: [day, new Date(day.getTime() + DAY_MS)], month: [month, nextMonth] } as const;
}

/**
 * Which of the referrer's caps their granted rewards already fill at `now`: the UTC day's, the UTC
 * month's or the lifetime one (in that order), or null while a reward is still allowed. Rewards of
 * every kind count, grandfathered ones too; rewards whose referrer was erased name nobody.
 */
export async function reachedCap(db: Queryable, referrerId: string, caps: ReferrerCaps, now: Date): Promise<keyof ReferrerCaps | null> {
  if (caps.perDay === undefined && caps.perMonth === undefined && caps.lifetime === undefined) return null;
  const { day, month } = capWindows(now);
  const [row] = await db.$queryRaw<{ day: number; month: number; lifetime: number }[]>`
    SELECT count(*) FILTER (WHERE "claimedAt" >= ${day[0]} AND "claimedAt" < ${day[1]})::int AS "day",
      count(*) FILTER (WHERE "claimedAt" >= ${month[0]} AND "claimedAt" < ${month[1]})::int AS "month",
      count(*)::int AS "lifetime"
    FROM "RewardHistory" WHERE "referrerId" = ${referrerId}`;
  const counted = row ?? { day: 0, month: 0, lifetime: 0 };
  if (caps.perDay !== undefined && counted.day >= caps.perDay) return "perDay";
  if (caps.perMonth !== undefined && counted.month >= caps.perMonth) return "perMonth";
  if (caps.lifetime !== undefined && counted.lifetime >= caps.lifetime) return "lifetime";
  return null;
}

/**
 * Locks the referrer's counters row until the transaction ends: claims for one referrer under a cap
 * or toward milestones then count and grant one after another, so two referees rewarded at once
 * cannot both pass a cap of N or both reach milestone N+1 as the Nth. The count that follows is a new
 * statement, so under READ COMMITTED it sees the reward of the claim that held the lock before.
 */
export async function lockReferrer(tx: Queryable, referrerId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "AppUserCounters" WHERE "appUserId" = ${referrerId} FOR UPDATE`;
}
