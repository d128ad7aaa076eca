import { Prisma } from "@/generated/prisma/client";

type Queryable = Pick<Prisma.TransactionClient, "$queryRaw" | "$executeRaw">;

/*
 * A reward's credit to its referrer (migration 20261130060000): the claim appends a ReferralCredit row
 * instead of writing the referrer's counters row, whose lock would make one referrer's rewards commit
 * one after another. The fold adds the credits to AppUserCounters' successfulReferrals, so the count
 * is the counter plus the user's credits not yet folded. A read of one user's count adds them
 * (successfulReferralsOf); a read that orders users by the count folds first (foldCredits).
 */

/** The successfulReferrals of the user whose id is `userId`, given their counters row `counters` (null when there is none). */
export const successfulReferralsOf = (userId: Prisma.Sql, counters: Prisma.Sql) =>
  Prisma.sql`(COALESCE(${counters}."successfulReferrals", 0) + (SELECT count(*) FROM "ReferralCredit" k WHERE k."appUserId" = ${userId})::int)`;

/**
 * Folds every committed credit into the counters. With `wait` (a read about to order users by the
 * count), after a fold or revocation in progress; else (the periodic job) it folds nothing then and
 * answers null. Answers how many credits it folded.
 */
export async function foldCredits(db: Queryable, { wait }: { wait: boolean }): Promise<number | null> {
  const [row] = await db.$queryRaw<{ folded: number | null }[]>`SELECT "referloop_fold_credits"(${wait}) AS "folded"`;
  return row?.folded ?? null;
}

/** Holds off folds until the transaction ends, for one that takes credits back (an erasure: a revocation's trigger does the same). */
export async function shareCredits(tx: Queryable): Promise<void> {
  await tx.$executeRaw`SELECT "referloop_share_credits"()`;
}
