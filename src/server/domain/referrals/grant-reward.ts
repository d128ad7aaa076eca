import { Prisma, type RewardEventOutcome, type TrackingStatus } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { recordActivity, type ActivityType } from "@/server/domain/activity/record-activity";
import { isUniqueViolation } from "@/server/domain/db-errors";
import {
  insertRewardDeliveries,
  type RewardEnvironment,
  type RewardPayload,
} from "@/server/domain/deliveries/insert-reward-deliveries";
import { invalidField } from "@/server/domain/errors";
import { decideReward, REWARD_REASON_TEXT, type RewardReason } from "@/server/domain/referrals/decide-reward";
import { loadRewardItem, type RewardItem } from "@/server/domain/referrals/load-reward-item";
import { parseEnvironment, parseEventName, parseRequiredText } from "@/server/domain/referrals/parse-referral-input";
import { deliveryScheduler } from "@/server/jobs/scheduler";

/** The webhook's `event` when neither the call nor the tracking item names one. */
export const DEFAULT_REWARD_EVENT_NAME = "reward";

export type GrantRewardInput = {
  referralTrackingId: string;
  /** The reported event; absent means the item's pre-assigned event (or any event if it has none). */
  eventName?: string | null;
  /** Sandbox or Production; absent reaches every enabled webhook of the campaign once. */
  environment?: string | null;
  /** The SDK's `newUserId`: when given, it must be the item's referee. */
  refereeId?: string | null;
};

export type GrantRewardResult = {
  /** True only for the call that claimed the reward. */
  rewardClaimed: boolean;
  /** The item's status after this call. */
  status: TrackingStatus;
  /** Why the reward was not claimed (only when rewardClaimed is false). */
  reason?: RewardReason;
  referralTrackingId: string;
  /** When this call claimed the reward. */
  rewardClaimedAt?: string;
};

type RewardContext = {
  project: { id: string; name: string };
  item: RewardItem;
  /** The reported name, else the item's pre-assigned one, else the default. */
  eventName: string;
  environment: RewardEnvironment | null;
};

/*
 * Under a burst of calls at one item, all but one wait on its row lock (and for pooled connections);
 * the winner's transaction is short, so generous limits only absorb the queue.
 */
const REWARD_TX = { maxWait: 15_000, timeout: 20_000 };

/**
 * Reports a reward event for a tracking item: runs the eligibility checks and moves the item
 * Pending -> Completed (reward history, counters, outbox deliveries) or Pending -> Failed,
 * atomically. Every call also records the reported event. The database settles races: the
 * status change is conditional on Pending, and RewardHistory's unique keys refuse a second claim for
 * the item or the referrer/referee pair.
 */
export async function grantReward(
  db: Db,
  organizationId: string,
  projectId: string,
  input: GrantRewardInput,
): Promise<GrantRewardResult> {
  const referralTrackingId = parseRequiredText(input.referralTrackingId, "referralTrackingId");
  const reportedEvent = parseEventName(input.eventName, "eventName");
  const environment = parseEnvironment(input.environment);
  const { project, item } = await loadRewardItem(db, organizationId, projectId, referralTrackingId);
  if (input.refereeId != null && input.refereeId !== item.refereeClientId) {
    throw invalidField("refereeId", "mismatch", "The new user is not the referee of this referral tracking item.");
  }
  const ctx: RewardContext = {
    project,
    item,
    eventName: reportedEvent ?? item.rewardEventName ?? DEFAULT_REWARD_EVENT_NAME,
    environment,
  };
  const decision = decideReward({
    item,
    eventName: reportedEvent,
    attributionWindowDays: item.attributionWindowDays,
    now: new Date(),
    // Read with the item, so that a pair rewarded earlier fails without a transaction that would
    // only roll back; a pair rewarded since is refused by RewardHistory's unique key (see completeItem).
    pairAlreadyRewarded: item.pairRewarded,
  });
  switch (decision.kind) {
    case "final":
      return rejectFinalItem(db, ctx);
    case "record":
      return recordIndependentEvent(db, ctx);
    case "fail":
      return failItem(db, ctx, decision.reason);
    case "complete":
      return completeItem(db, ctx);
  }
}

async function completeItem(db: Db, ctx: RewardContext): Promise<GrantRewardResult> {
  const claimedAt = new Date();
  let deliveryIds: string[] | null;
  try {
    deliveryIds = await claimReward(db, ctx, claimedAt);
  } catch (error) {
    // The pair was rewarded by a concurrent completion of another item (the item's own key cannot
    // clash: the conditional update holds the row). The statement wrote nothing; fail the item instead.
    if (isUniqueViolation(error)) return failItem(db, ctx, "duplicate_referee");
    throw error;
  }
  // A concurrent call completed or failed the item after it was read.
  if (deliveryIds === null) return rejectFinalItem(db, ctx);
  await nudgeScheduler(deliveryIds);
  return { rewardClaimed: true, status: "Completed", referralTrackingId: ctx.item.id, rewardClaimedAt: claimedAt.toISOString() };
}

/**
 * The claim in one statement: the item's conditional Pending -> Completed, then, only if that took the
 * item, its reward history, the parties' counters, one outbox row per routed webhook, the Claimed
 * event and the activity entry. A single statement is atomic without an interactive transaction,
 * which the reward path cannot afford: in Prisma's, the same writes (six statements between BEGIN
 * and COMMIT) cost about 4 ms of Node CPU per claim, as one statement about 1 ms (bench/README.md).
 * Written as SQL, the inserts fill in what Prisma otherwise would: UUID ids and timestamps from this
 * process's clock. Returns the delivery ids, or null when the item was no longer Pending.
 */
async function claimReward(db: Db, ctx: RewardContext, claimedAt: Date): Promise<string[] | null> {
  const { project, item } = ctx;
  const environment = Prisma.sql`CAST(${ctx.environment} AS "RewardEnvironment")`;
  const ifClaimed = Prisma.sql`EXISTS (SELECT FROM claimed)`;
  const activity = {
    type: "reward_claimed" satisfies ActivityType,
    description: `${item.referrerClientId} earned a reward: ${item.refereeClientId} completed "${ctx.eventName}".`,
  };
  const [row] = await db.$queryRaw<{ claimed: boolean; deliveryIds: string[] }[]>`
    WITH claimed AS (
      UPDATE "ReferralTracking"
      SET "status" = 'Completed', "rewardClaimed" = true, "rewardClaimedAt" = ${claimedAt}, "updatedAt" = ${claimedAt}
      WHERE "id" = ${item.id} AND "status" = 'Pending'
      RETURNING "id"
    ), history AS (
      INSERT INTO "RewardHistory" ("id", "projectId", "trackingId", "referrerId", "refereeId", "eventName", "environment", "claimedAt")
      SELECT gen_random_uuid()::text, ${project.id}, "id", ${item.referrerId}, ${item.refereeId}, ${ctx.eventName}, ${environment}, ${claimedAt}
      FROM claimed
    ), credited AS (
      -- The referrer's successfulReferrals + 1, and the referee's "referred by" if it has none yet (a
      -- referee rewarded through several referrers keeps the first); updatedAt only where a row changes.
      UPDATE "AppUser" SET
        "successfulReferrals" = "successfulReferrals" + CASE WHEN "id" = ${item.referrerId} THEN 1 ELSE 0 END,
        "referredById" = CASE WHEN "id" = ${item.refereeId} THEN COALESCE("referredById", ${item.referrerId}) ELSE "referredById" END,
        "updatedAt" = ${claimedAt}
      WHERE ("id" = ${item.referrerId} OR ("id" = ${item.refereeId} AND "referredById" IS NULL)) AND ${ifClaimed}
    ), deliveries AS (
      ${insertRewardDeliveries(rewardPayload(ctx, claimedAt), ctx.environment, { at: claimedAt, onlyIf: ifClaimed })}
    ), event AS (
      INSERT INTO "RewardEvent" ("id", "projectId", "trackingId", "eventName", "environment", "outcome", "reason", "createdAt")
      SELECT gen_random_uuid()::text, ${project.id}, "id", ${ctx.eventName}, ${environment}, 'Claimed', NULL, ${claimedAt}
      FROM claimed
    ), activity AS (
      INSERT INTO "Activity" ("id", "projectId", "appUserId", "type", "description", "createdAt")
      SELECT gen_random_uuid()::text, ${project.id}, ${item.referrerId}, ${activity.type}, ${activity.description}, ${claimedAt}
      FROM claimed
    )
    SELECT ${ifClaimed} AS "claimed", ARRAY(SELECT "id" FROM deliveries) AS "deliveryIds"`;
  return row?.claimed ? row.deliveryIds : null;
}

function failItem(db: Db, ctx: RewardContext, reason: RewardReason): Promise<GrantRewardResult> {
  const { item } = ctx;
  return db.$transaction(async (tx) => {
    const { count } = await tx.referralTracking.updateMany({
      where: { id: item.id, status: "Pending" },
      data: { status: "Failed", failureReason: reason },
    });
    if (count === 0) return rejectFinalItem(tx, ctx);
    await recordRewardEvent(tx, ctx, "Rejected", reason);
    await recordActivity(tx, {
      projectId: ctx.project.id,
      appUserId: item.referrerId,
      type: "reward_rejected",
      description: `No reward for ${item.referrerClientId} referring ${item.refereeClientId}. ${REWARD_REASON_TEXT[reason]} (${reason}).`,
    });
    return notClaimed(ctx, "Failed", reason);
  }, REWARD_TX);
}

/** The item is already Completed or Failed (possibly a moment ago, by a concurrent call): left as it is. */
async function rejectFinalItem(tx: Prisma.TransactionClient, ctx: RewardContext): Promise<GrantRewardResult> {
  const { status } = await tx.referralTracking.findUniqueOrThrow({ where: { id: ctx.item.id }, select: { status: true } });
  const reason = status === "Completed" ? "already_completed" : "already_failed";
  await recordRewardEvent(tx, ctx, "Rejected", reason);
  return notClaimed(ctx, status, reason);
}

/** An event that is not the item's qualifying one: kept as an independent event; the item stays as it is. */
function recordIndependentEvent(db: Db, ctx: RewardContext): Promise<GrantRewardResult> {
  return db.$transaction(async (tx) => {
    await recordRewardEvent(tx, ctx, "Recorded", "event_mismatch");
    await recordActivity(tx, {
      projectId: ctx.project.id,
      appUserId: ctx.item.referrerId,
      type: "event_recorded",
      description: `${ctx.item.refereeClientId} reported "${ctx.eventName}"; this referral waits for "${ctx.item.rewardEventName}".`,
    });
    return notClaimed(ctx, ctx.item.status, "event_mismatch");
  });
}

function recordRewardEvent(
  tx: Prisma.TransactionClient,
  ctx: RewardContext,
  outcome: RewardEventOutcome,
  reason: RewardReason | null,
) {
  return tx.rewardEvent.create({
    data: {
      projectId: ctx.project.id,
      trackingId: ctx.item.id,
      eventName: ctx.eventName,
      environment: ctx.environment,
      outcome,
      reason,
    },
  });
}

const notClaimed = (ctx: RewardContext, status: TrackingStatus, reason: RewardReason): GrantRewardResult => ({
  rewardClaimed: false,
  status,
  reason,
  referralTrackingId: ctx.item.id,
});

function rewardPayload(ctx: RewardContext, claimedAt: Date): RewardPayload {
  return {
    event: ctx.eventName,
    referrerId: ctx.item.referrerClientId,
    refereeId: ctx.item.refereeClientId,
    rewardClaimedAt: claimedAt.toISOString(),
    trackingId: ctx.item.id,
    rewardStatus: "Completed",
    projectId: ctx.project.id,
    projectName: ctx.project.name,
    campaignId: ctx.item.campaignId,
  };
}

/**
 * The reward is committed whatever happens here: the outbox rows are durable and the scheduler's
 * sweep finds due rows, so a failed nudge only delays the webhooks and must not fail the call.
 */
async function nudgeScheduler(deliveryIds: string[]) {
  if (deliveryIds.length === 0) return;
  try {
    await deliveryScheduler().enqueue(deliveryIds);
  } catch (error) {
    console.error("[grant-reward] scheduler nudge failed; deliveries stay queued in the outbox", error);
  }
}
