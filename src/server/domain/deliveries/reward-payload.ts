import type { z } from "zod";
import { rewardDeliverySchema } from "@/lib/schemas/webhooks";
import type { RewardContext } from "@/server/domain/referrals/reward-context";

/** The body of the reward webhook, field for field as the spec's Events section lists it. */
export type RewardPayload = z.infer<typeof rewardDeliverySchema>;

const FIELDS = Object.keys(rewardDeliverySchema.shape) as (keyof RewardPayload)[];

/**
 * The exact bytes sent (and signed) for a stored payload: the spec's fields in the spec's order and
 * nothing else, so whatever else a stored row might carry never reaches a receiver.
 */
export function rewardPayloadBody(stored: unknown): string {
  const source = (stored ?? {}) as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const field of FIELDS) body[field] = source[field] ?? null;
  return JSON.stringify(body);
}

/** The payload a reward claimed at `claimedAt` delivers. */
export function buildRewardPayload(ctx: RewardContext, claimedAt: Date): RewardPayload {
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
