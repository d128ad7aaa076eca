import type { Prisma, RewardEventOutcome, TrackingStatus } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { recordActivity } from "@/server/domain/activity/record-activity";
import { isUniqueViolation } from "@/server/domain/db-errors";
import {
  enqueueRewardDeliveries,
  type RewardEnvironment,
  type RewardPayload,
} from "@/server/domain/deliveries/enqueue-reward-deliveries";
import { invalidField, notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { decideReward, type RewardReason } from "@/server/domain/referrals/decide-reward";
import { parseEnvironment, parseEventName, parseRequiredText } from "@/server/domain/referrals/parse-referral-input";
import { withParties, type ReferralRow } from "@/server/domain/referrals/to-referral-dto";
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
  item: ReferralRow;
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
 * Pending -> Completed (reward history, counters, outbox deliveries) or Pending -> Failed, in one
 * transaction. Every call also records the reported event. The database settles races: the
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
  const project = await getOwnedProject(db, organizationId, projectId);
  const item = await db.referralTracking.findFirst({
    where: { id: referralTrackingId, projectId: project.id },
    include: { ...withParties, campaign: { select: { attributionWindowDays: true } } },
  });
  if (!item) throw notFound("Referral tracking item");
  if (input.refereeId != null && input.refereeId !== item.referee.clientProvidedId) {
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
    attributionWindowDays: item.campaign.attributionWindowDays,
    now: new Date(),
    pairAlreadyRewarded: item.status === "Pending" && (await isPairRewarded(db, item)),
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

async function isPairRewarded(db: Db, item: ReferralRow) {
  const reward = await db.rewardHistory.findUnique({
    where: { referrerId_refereeId: { referrerId: item.referrerId, refereeId: item.refereeId } },
    select: { id: true },
  });
  return reward !== null;
}

async function completeItem(db: Db, ctx: RewardContext): Promise<GrantRewardResult> {
  const { item, project } = ctx;
  let outcome: { result: GrantRewardResult; deliveryIds: string[] };
  try {
    outcome = await db.$transaction(async (tx) => {
      const claimedAt = new Date();
      const { count } = await tx.referralTracking.updateMany({
        where: { id: item.id, status: "Pending" },
        data: { status: "Completed", rewardClaimed: true, rewardClaimedAt: claimedAt },
      });
      if (count === 0) return { result: await rejectFinalItem(tx, ctx), deliveryIds: [] };
      await tx.rewardHistory.create({
        data: {
          projectId: project.id,
          trackingId: item.id,
          referrerId: item.referrerId,
          refereeId: item.refereeId,
          eventName: ctx.eventName,
          environment: ctx.environment,
          claimedAt,
        },
      });
      await tx.appUser.update({ where: { id: item.referrerId }, data: { successfulReferrals: { increment: 1 } } });
      // A referee rewarded through several referrers keeps the first as "referred by".
      await tx.appUser.updateMany({
        where: { id: item.refereeId, referredById: null },
        data: { referredById: item.referrerId },
      });
      const deliveryIds = await enqueueRewardDeliveries(tx, rewardPayload(ctx, claimedAt), ctx.environment);
      await recordRewardEvent(tx, ctx, "Claimed", null);
      await recordActivity(tx, {
        projectId: project.id,
        appUserId: item.referrerId,
        type: "reward_claimed",
        description: `${item.referrer.clientProvidedId} earned a reward: ${item.referee.clientProvidedId} completed "${ctx.eventName}".`,
      });
      const result: GrantRewardResult = {
        rewardClaimed: true,
        status: "Completed",
        referralTrackingId: item.id,
        rewardClaimedAt: claimedAt.toISOString(),
      };
      return { result, deliveryIds };
    }, REWARD_TX);
  } catch (error) {
    // The pair was rewarded by a concurrent completion of another item (the item's own key cannot
    // clash: its conditional update above holds the row). Everything rolled back; fail it instead.
    if (isUniqueViolation(error)) return failItem(db, ctx, "duplicate_referee");
    throw error;
  }
  await nudgeScheduler(outcome.deliveryIds);
  return outcome.result;
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
      description: `No reward for ${item.referrer.clientProvidedId} referring ${item.referee.clientProvidedId}: ${reason}.`,
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
      description: `${ctx.item.referee.clientProvidedId} reported "${ctx.eventName}"; this referral waits for "${ctx.item.rewardEventName}".`,
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
    referrerId: ctx.item.referrer.clientProvidedId,
    refereeId: ctx.item.referee.clientProvidedId,
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
