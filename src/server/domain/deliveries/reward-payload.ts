import type { z } from "zod";
import { TEST_EVENT_NAME } from "@/lib/schemas/deliveries";
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

/**
 * The exact bytes sent for a delivery of `eventType`: the reward's and the test event's, the spec's
 * fields (rewardPayloadBody); any other type's stored payload is its body as written (storedPayload).
 */
export const deliveryBody = (eventType: string, stored: unknown): string =>
  eventType === "reward.granted" || eventType === TEST_EVENT_NAME ? rewardPayloadBody(stored) : JSON.stringify({ type: eventType, ...(stored ?? {}) });

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
