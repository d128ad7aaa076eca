import type { RewardEnvironment } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { invalidField } from "@/server/domain/errors";
import { claimReward } from "./claim-reward";
import { decideReward } from "./decide-reward";
import { loadRewardItem } from "./load-reward-item";
import { failReward, recordIndependentEvent, rejectFinalItem } from "./refuse-reward";
import type { GrantRewardResult, RewardContext } from "./reward-context";

export type { GrantRewardResult } from "./reward-context";

/** The webhook's `event` when neither the call nor the tracking item names one. */
export const DEFAULT_REWARD_EVENT_NAME = "reward";

export type GrantRewardInput = {
  referralTrackingId: string;
  /** The reported event; absent means the item's pre-assigned event (or any event if it has none). */
  eventName?: string;
  /** Sandbox or Production; absent reaches every enabled webhook of the campaign once. */
  environment?: RewardEnvironment;
  /** The SDK's `newUserId`: when given, it must be the item's referee. */
  refereeId?: string;
};

/**
 * Reports a reward event for a tracking item: runs the eligibility checks and moves the item
 * Pending -> Completed (reward history, counters, outbox deliveries) or Pending -> Failed,
 * atomically. Every call also records the reported event. The database settles races: the
 * status change is conditional on Pending, and RewardHistory's unique keys refuse a second claim for
 * the item, the referee, or the pair of users either way round. The caller hands the result's
 * `deliveryIds` to the scheduler.
 */
export async function grantReward(
  db: Db,
  organizationId: string,
  projectId: string,
  input: GrantRewardInput,
): Promise<GrantRewardResult> {
  const now = new Date();
  const { project, item } = await loadRewardItem(db, organizationId, projectId, input.referralTrackingId, now);
  if (input.refereeId !== undefined && input.refereeId !== item.refereeClientId) {
    throw invalidField("refereeId", "mismatch", "The new user is not the referee of this referral tracking item.");
  }
  const ctx: RewardContext = {
    project,
    item,
    eventName: input.eventName ?? item.rewardEventName ?? DEFAULT_REWARD_EVENT_NAME,
    environment: input.environment ?? null,
  };
  // The facts are read with the item, so that a referee or pair rewarded earlier fails without a
  // transaction that would only roll back; one rewarded since is refused by RewardHistory's unique
  // indexes (see claimReward).
  const decision = decideReward({ ...item, item, eventName: input.eventName ?? null, now });
  switch (decision.kind) {
    case "final":
      return rejectFinalItem(db, ctx);
    case "record":
      return recordIndependentEvent(db, ctx, decision.reason);
    case "fail":
      return failReward(db, ctx, decision.reason);
    case "complete":
      return claimReward(db, ctx);
  }
}
