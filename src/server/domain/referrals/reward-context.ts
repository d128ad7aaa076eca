import type { RewardEnvironment, TrackingStatus } from "@/generated/prisma/client";
import type { RewardReason } from "@/lib/schemas/referrals";
import type { ClaimedAttempt } from "@/server/domain/deliveries/claim-attempts";
import type { BoundRewardItem, RewardItem } from "./load-reward-item";

/**
 * What every path of a reported reward event works from. Completing or failing an item needs its
 * referee; recording an event or refusing a final item does not (`RewardContext<RewardItem>`).
 */
export type RewardContext<Item extends RewardItem = BoundRewardItem> = {
  project: { id: string; name: string };
  item: Item;
  /** The reported name, else the item's pre-assigned one, else the default. */
  eventName: string;
  environment: RewardEnvironment | null;
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
  /** The outbox rows the claim wrote, for the caller to hand to the scheduler (empty when not claimed). */
  deliveryIds: string[];
  /** Of those, the first attempts the claim took under the caller's lease (see DeliveryLease): the lease's worker sends them now. */
  leased?: ClaimedAttempt[];
};

export const notClaimed = (ctx: RewardContext<RewardItem>, status: TrackingStatus, reason: RewardReason): GrantRewardResult => ({
  rewardClaimed: false,
  status,
  reason,
  referralTrackingId: ctx.item.id,
  deliveryIds: [],
});
