import type { Prisma, RewardEnvironment } from "@/generated/prisma/client";
import { REWARD_REASONS, type RewardReason } from "@/lib/schemas/referrals";
import type { Db } from "@/server/db/client";
import { recordActivity } from "@/server/domain/activity/record-activity";
import { recordRewardEvent } from "./record-reward-event";
import type { RewardItem } from "./load-reward-item";
import { notClaimed, type GrantRewardResult, type RewardContext } from "./reward-context";

/*
 * The paths of a reported reward event that claim nothing. Each records the event (every report is
 * kept), and leaves the item final or as it was.
 */

/*
 * Under a burst of calls at one item, all but one wait on its row lock (and for pooled connections);
 * the winner's transaction is short, so generous limits only absorb the queue.
 */
export const REWARD_TX = { maxWait: 15_000, timeout: 20_000 };

/** An eligibility check failed: Pending -> Failed with the reason, unless a concurrent call finished the item first. */
export function failReward(db: Db, ctx: RewardContext, reason: RewardReason): Promise<GrantRewardResult> {
  return db.$transaction((tx) => failRewardIn(tx, ctx, reason), REWARD_TX);
}

/** failReward inside the caller's transaction; a held item leaves the review queue with it. */
export async function failRewardIn(tx: Prisma.TransactionClient, ctx: RewardContext, reason: RewardReason): Promise<GrantRewardResult> {
  const { item } = ctx;
  const { count } = await tx.referralTracking.updateMany({
    where: { id: item.id, status: "Pending" },
    data: { status: "Failed", failureReason: reason },
  });
  if (count === 0) return rejectFinalItem(tx, ctx);
  await tx.rewardReview.deleteMany({ where: { trackingId: item.id } });
  await recordRewardEvent(tx, eventOf(ctx, "Rejected", reason));
  await recordActivity(tx, {
    projectId: ctx.project.id,
    appUserId: item.referrerId,
    trackingId: item.id,
    type: "reward_rejected",
    description: `No reward for ${item.referrerClientId} referring ${item.refereeClientId}. ${REWARD_REASONS[reason].text} (${reason}).`,
  });
  return notClaimed(ctx, "Failed", reason);
}

/** The item is already Completed, Failed or Revoked (possibly a moment ago, by a concurrent call): left as it is. */
export async function rejectFinalItem(tx: Prisma.TransactionClient, ctx: RewardContext<RewardItem>): Promise<GrantRewardResult> {
  const { status } = await tx.referralTracking.findUniqueOrThrow({ where: { id: ctx.item.id }, select: { status: true } });
  const reason = status === "Completed" ? "already_completed" : status === "Revoked" ? "already_revoked" : "already_failed";
  await recordRewardEvent(tx, eventOf(ctx, "Rejected", reason));
  return notClaimed(ctx, status, reason);
}

/**
 * An event that cannot be the item's qualifying one yet: another event was pre-assigned
 * (event_mismatch), or the item has no referee to reward (referee_unknown). It is kept as an
 * independent event; the item stays as it is.
 */
export function recordIndependentEvent(db: Db, ctx: RewardContext<RewardItem>, reason: "event_mismatch" | "referee_unknown"): Promise<GrantRewardResult> {
  const { item } = ctx;
  const waitsFor = reason === "event_mismatch" ? `"${item.rewardEventName}"` : "its referee to be identified";
  return db.$transaction(async (tx) => {
    await recordRewardEvent(tx, eventOf(ctx, "Recorded", reason));
    await recordActivity(tx, {
      projectId: ctx.project.id,
      appUserId: item.referrerId,
      trackingId: item.id,
      type: "event_recorded",
      description: `${item.refereeClientId ?? "An unidentified referee"} reported "${ctx.eventName}"; this referral waits for ${waitsFor}.`,
    });
    return notClaimed(ctx, item.status, reason);
  });
}

/**
 * The reported new user of an item without a referee is its referrer: nobody is bound (bindReferee
 * never binds a user to their own referral), the item stays Pending for its real referee, and the
 * event is kept as Rejected.
 */
export function refuseSelfReferral(
  db: Db,
  ctx: { project: { id: string }; item: RewardItem; eventName: string; environment: RewardEnvironment | null },
): Promise<GrantRewardResult> {
  const { item } = ctx;
  return db.$transaction(async (tx) => {
    await recordRewardEvent(tx, { ...eventOf(ctx, "Rejected", "self_referral"), trackingId: item.id });
    await recordActivity(tx, {
      projectId: ctx.project.id,
      appUserId: item.referrerId,
      trackingId: item.id,
      type: "reward_rejected",
      description: `No reward for ${item.referrerClientId}: the new user reported for their referral is ${item.referrerClientId} (self_referral).`,
    });
    return { rewardClaimed: false, status: item.status, reason: "self_referral", referralTrackingId: item.id, written: null };
  });
}

export const eventOf = (ctx: Pick<RewardContext, "eventName" | "environment"> & { project: { id: string }; item: { id: string } }, outcome: "Rejected" | "Recorded", reason: RewardReason) => ({
  projectId: ctx.project.id,
  trackingId: ctx.item.id,
  eventName: ctx.eventName,
  environment: ctx.environment,
  outcome,
  reason,
});
