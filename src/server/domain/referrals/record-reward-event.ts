import { Prisma, type RewardEnvironment, type RewardEventOutcome } from "@/generated/prisma/client";
import type { RewardReason } from "@/lib/schemas/referrals";

export type RewardEventInput = {
  projectId: string;
  trackingId: string;
  eventName: string;
  environment: RewardEnvironment | null;
  outcome: RewardEventOutcome;
  reason: RewardReason | null;
};

/** An event written inside a larger statement may take its name from the statement's own rows. */
export type RewardEventInsert = Omit<RewardEventInput, "eventName"> & { eventName: string | Prisma.Sql };

/**
 * The one INSERT of a reported reward event (every report is kept, whatever its outcome), also used
 * inside the reward claim's single statement, where `onlyIf` gates it on the claim.
 */
export function rewardEventInsert(event: RewardEventInsert, { at = new Date(), onlyIf = Prisma.sql`true` } = {}): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO "RewardEvent" ("id", "projectId", "trackingId", "eventName", "environment", "outcome", "reason", "createdAt")
    SELECT gen_random_uuid()::text, ${event.projectId}, ${event.trackingId}, ${event.eventName},
      CAST(${event.environment} AS "RewardEnvironment"), CAST(${event.outcome} AS "RewardEventOutcome"), ${event.reason}, ${at}
    WHERE ${onlyIf}`;
}

export async function recordRewardEvent(tx: Prisma.TransactionClient, event: RewardEventInput) {
  await tx.$executeRaw(rewardEventInsert(event));
}
