import type { RewardEnvironment, TrackingStatus } from "@/generated/prisma/client";
import type { RewardReason } from "@/lib/schemas/referrals";
import type { OutboxWrite } from "@/server/domain/deliveries/outbox";
import type { RewardPayload } from "@/server/domain/deliveries/reward-payload";
import type { BoundRewardItem, RewardItem } from "./load-reward-item";

/** The webhook's `event` when neither the call nor the tracking item names one. */
export const DEFAULT_REWARD_EVENT_NAME = "reward";

/**
 * What every path of a reported reward event works from. Completing or failing an item needs its
 * referee; recording an event or refusing a final item does not (`RewardContext<RewardItem>`).
 */
export type RewardContext<Item extends RewardItem = BoundRewardItem> = {
  project: { id: string; name: string; organizationId: string };
  item: Item;
  /** The reported name, else the item's pre-assigned one, else the default. */
  eventName: string;
  environment: RewardEnvironment | null;
};

/** What the caller of a reported reward event is told. */
export type RewardOutcome = {
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

/** The outcome, and what a claim wrote to the outbox (null when nothing was claimed), for the outbox to dispatch. */
export type GrantRewardResult = RewardOutcome & {
  written: OutboxWrite<RewardPayload | Record<string, unknown>> | null;
  /** Other events the claim wrote in its statement (milestone.reached), dispatched like `written`. */
  alsoWritten?: OutboxWrite[];
};

export const notClaimed = (ctx: RewardContext<RewardItem>, status: TrackingStatus, reason: RewardReason): GrantRewardResult => ({
  rewardClaimed: false,
  status,
  reason,
  referralTrackingId: ctx.item.id,
  written: null,
});
