import type { TrackingStatus } from "@/generated/prisma/client";

export type RewardDecision =
  | { kind: "final"; reason: "already_completed" | "already_failed" }
  | { kind: "record"; reason: "event_mismatch" }
  | { kind: "fail"; reason: "self_referral" | "expired" | "duplicate_referee" }
  | { kind: "complete" };

export type RewardFacts = {
  item: {
    status: TrackingStatus;
    rewardEventName: string | null;
    referrerId: string;
    refereeId: string;
    createdAt: Date;
  };
  /** The reported event name; absent means the item's own qualifying event. */
  eventName: string | null;
  attributionWindowDays: number;
  now: Date;
  /** A RewardHistory entry already exists for this referrer/referee pair. */
  pairAlreadyRewarded: boolean;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The eligibility checks in order; the first that fails decides. An event that does not match the
 * item's pre-assigned event comes before the failing checks: it is not this item's qualifying event,
 * so it must not be able to fail (or otherwise touch) the item.
 */
export function decideReward(facts: RewardFacts): RewardDecision {
  const { item } = facts;
  if (item.status === "Completed") return { kind: "final", reason: "already_completed" };
  if (item.status === "Failed") return { kind: "final", reason: "already_failed" };
  if (item.rewardEventName !== null && facts.eventName !== null && facts.eventName !== item.rewardEventName) {
    return { kind: "record", reason: "event_mismatch" };
  }
  if (item.referrerId === item.refereeId) return { kind: "fail", reason: "self_referral" };
  if (facts.now.getTime() - item.createdAt.getTime() > facts.attributionWindowDays * DAY_MS) {
    return { kind: "fail", reason: "expired" };
  }
  if (facts.pairAlreadyRewarded) return { kind: "fail", reason: "duplicate_referee" };
  return { kind: "complete" };
}
