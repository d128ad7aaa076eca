import { Prisma, type AttributionModel, type TrackingStatus } from "@/generated/prisma/client";

export type RewardDecision =
  | { kind: "final"; reason: "already_completed" | "already_failed" | "already_revoked" }
  | { kind: "record"; reason: "event_mismatch" | "referee_unknown" }
  | { kind: "fail"; reason: "self_referral" | "expired" | "duplicate_referee" | "mutual_referral" | "not_first_arrival" | "not_last_arrival" }
  | { kind: "complete" };

export type RewardFacts = {
  item: {
    status: TrackingStatus;
    rewardEventName: string | null;
    referrerId: string;
    /** Null for an anonymous arrival no app user has been bound to yet: it cannot complete. */
    refereeId: string | null;
    createdAt: Date;
  };
  /** The reported event name; absent means the item's own qualifying event. */
  eventName: string | null;
  attributionWindowDays: number;
  /** Which of a referee's arrivals may complete: the first or the last. */
  attributionModel: AttributionModel;
  now: Date;
  /** A reward history entry already exists with this referee (through any referrer). */
  refereeRewarded: boolean;
  /** The referee was already rewarded for referring this referrer (the same pair, the other way round). */
  reverseRewarded: boolean;
  /** Another arrival of the referee, earlier / later than this item, is Pending and within the window. */
  earlierArrivalOpen: boolean;
  laterArrivalOpen: boolean;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The eligibility checks in order; the first that fails decides. An event that is not this item's
 * qualifying one (another pre-assigned event), or one reported before the item has a referee, comes
 * before the failing checks: it must not be able to fail (or otherwise touch) the item.
 * The farming rules: a referee completes at most one referral per project (the arrival the campaign's
 * attribution model names), and two users never both earn a reward from each other.
 */
export function decideReward(facts: RewardFacts): RewardDecision {
  const { item } = facts;
  if (item.status === "Completed") return { kind: "final", reason: "already_completed" };
  if (item.status === "Failed") return { kind: "final", reason: "already_failed" };
  if (item.status === "Revoked") return { kind: "final", reason: "already_revoked" };
  if (item.rewardEventName !== null && facts.eventName !== null && facts.eventName !== item.rewardEventName) {
    return { kind: "record", reason: "event_mismatch" };
  }
  if (item.refereeId === null) return { kind: "record", reason: "referee_unknown" };
  if (item.referrerId === item.refereeId) return { kind: "fail", reason: "self_referral" };
  if (facts.now.getTime() - item.createdAt.getTime() > facts.attributionWindowDays * DAY_MS) {
    return { kind: "fail", reason: "expired" };
  }
  if (facts.refereeRewarded) return { kind: "fail", reason: "duplicate_referee" };
  if (facts.reverseRewarded) return { kind: "fail", reason: "mutual_referral" };
  if (facts.attributionModel === "first" && facts.earlierArrivalOpen) return { kind: "fail", reason: "not_first_arrival" };
  if (facts.attributionModel === "last" && facts.laterArrivalOpen) return { kind: "fail", reason: "not_last_arrival" };
  return { kind: "complete" };
}

/**
 * decideReward's "complete", and grantReward's other conditions for claiming at once (referrer not
 * erased, referee bound and the one the call names, not in review), as a condition on a row of
 * rewardItemSelect aliased `l`: the claim that reads its item in its own statement (claimIfEligible)
 * claims only when this holds, and otherwise leaves the item to decideReward. The integration test of
 * claimIfEligible holds the two to the same answers.
 */
export const completesSql = (reported: { eventName: string | null; refereeClientId: string | null }, now: Date) => Prisma.sql`(
    l."status" = 'Pending' AND l."referrerId" IS NOT NULL AND l."refereeId" IS NOT NULL AND NOT l."inReview"
    AND (CAST(${reported.refereeClientId} AS text) IS NULL OR l."refereeClientId" = ${reported.refereeClientId})
    AND (CAST(${reported.eventName} AS text) IS NULL OR l."rewardEventName" IS NULL OR l."rewardEventName" = ${reported.eventName})
    AND l."referrerId" <> l."refereeId"
    AND l."createdAt" >= CAST(${now} AS timestamp(3)) - make_interval(days => l."attributionWindowDays")
    AND NOT l."refereeRewarded" AND NOT l."reverseRewarded"
    AND NOT (l."attributionModel" = 'first' AND l."earlierArrivalOpen")
    AND NOT (l."attributionModel" = 'last' AND l."laterArrivalOpen"))`;
