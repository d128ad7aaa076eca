import type { RewardEnvironment, TrackingStatus } from "@/generated/prisma/client";
import type { RewardReason } from "@/lib/schemas/referrals";
import type { BoundRewardItem } from "./load-reward-item";

/** What every path of a reported reward event works from. */
export type RewardContext = {
  project: { id: string; name: string };
  item: BoundRewardItem;
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
};

export const notClaimed = (ctx: RewardContext, status: TrackingStatus, reason: RewardReason): GrantRewardResult => ({
  rewardClaimed: false,
  status,
  reason,
  referralTrackingId: ctx.item.id,
  deliveryIds: [],
});
