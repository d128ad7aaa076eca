import { REVIEW_REASONS, type ReviewReason } from "@/lib/schemas/reward-rules";
import { formatUtc } from "@/lib/format";
import type { Db } from "@/server/db/client";
import { recordActivity } from "@/server/domain/activity/record-activity";
import { writeEventDeliveries } from "@/server/domain/deliveries/insert-event-deliveries";
import { recordRewardEvent } from "./record-reward-event";
import { eventOf, rejectFinalItem, REWARD_TX } from "./refuse-reward";
import type { RewardItem } from "./load-reward-item";
import { notClaimed, type GrantRewardResult, type RewardContext } from "./reward-context";

/**
 * A reward a campaign rule holds back: the item stays Pending and enters the review queue with the
 * event it would complete with, unless it is no longer Pending or already there (a concurrent report).
 * No reward is delivered (reward.held goes to the webhooks that subscribe to it); the caller is told `held_for_review`.
 */
export function holdReward(db: Db, ctx: RewardContext, hold: { reasons: ReviewReason[]; holdUntil: Date | null }, now: Date): Promise<GrantRewardResult> {
  const { item, project } = ctx;
  return db.$transaction(async (tx) => {
    const entered = await tx.$executeRaw`
      INSERT INTO "RewardReview" ("trackingId", "projectId", "eventName", "environment", "reasons", "holdUntil", "createdAt")
      SELECT "id", ${project.id}, ${ctx.eventName}, CAST(${ctx.environment} AS "RewardEnvironment"), ${hold.reasons}::text[], ${hold.holdUntil}::timestamp(3), ${now}
      FROM "ReferralTracking" WHERE "id" = ${item.id} AND "status" = 'Pending'
      ON CONFLICT ("trackingId") DO NOTHING`;
    if (entered === 0) {
      const { status } = await tx.referralTracking.findUniqueOrThrow({ where: { id: item.id }, select: { status: true } });
      if (status !== "Pending") return rejectFinalItem(tx, ctx);
    }
    await recordRewardEvent(tx, eventOf(ctx, "Recorded", "held_for_review"));
    let written: GrantRewardResult["written"] = null;
    if (entered > 0) {
      const why = hold.reasons.map((r) => REVIEW_REASONS[r].toLowerCase()).join("; ");
      const until = hold.holdUntil ? ` until ${formatUtc(hold.holdUntil)}` : "";
      await recordActivity(tx, {
        projectId: project.id,
        appUserId: item.referrerId,
        trackingId: item.id,
        type: "reward_held",
        description: `The reward for ${item.referrerClientId} referring ${item.refereeClientId} is held for review${until}: ${why}.`,
      });
      written = await writeEventDeliveries(
        tx,
        {
          type: "reward.held",
          projectId: project.id,
          trackingId: item.id,
          parties: item,
          environment: ctx.environment,
          payload: {
            trackingId: item.id,
            event: ctx.eventName,
            referrerId: item.referrerClientId,
            refereeId: item.refereeClientId,
            reasons: hold.reasons,
            holdUntil: hold.holdUntil?.toISOString() ?? null,
            heldAt: now.toISOString(),
            projectId: project.id,
            campaignId: item.campaignId,
          },
        },
        now,
      );
    }
    return { ...notClaimed(ctx, "Pending", "held_for_review"), written };
  }, REWARD_TX);
}

/** A report for an item already in the review queue: recorded, and answered as held. */
export function reportHeldItem(db: Db, ctx: RewardContext<RewardItem>): Promise<GrantRewardResult> {
  return db.$transaction(async (tx) => {
    await recordRewardEvent(tx, eventOf(ctx, "Recorded", "held_for_review"));
    return notClaimed(ctx, "Pending", "held_for_review");
  });
}
