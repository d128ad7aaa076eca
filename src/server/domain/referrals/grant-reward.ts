import type { RewardEnvironment } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { DomainError } from "@/server/domain/errors";
import { bindReferee } from "./bind-referee";
import { claimReward } from "./claim-reward";
import { decideReward } from "./decide-reward";
import { isBound, loadRewardItem, type RewardItem } from "./load-reward-item";
import { failReward, recordIndependentEvent, refuseSelfReferral, rejectFinalItem } from "./refuse-reward";
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
  /**
   * The referee's clientProvidedId (REST `RefereeId`, the SDK's `newUserId`). Binds an item that has
   * no referee yet; for an item that has one, it must be that referee.
   */
  refereeId?: string;
};

/**
 * Reports a reward event for a tracking item: runs the eligibility checks and moves the item
 * Pending -> Completed (reward history, counters, outbox deliveries) or Pending -> Failed,
 * atomically. Every call also records the reported event. The database settles races: the
 * status change is conditional on Pending, and RewardHistory's unique keys refuse a second claim for
 * the item or the referrer/referee pair. The caller hands the result's `deliveryIds` to the scheduler.
 */
export async function grantReward(
  db: Db,
  organizationId: string,
  projectId: string,
  input: GrantRewardInput,
): Promise<GrantRewardResult> {
  const loaded = await loadRewardItem(db, organizationId, projectId, input.referralTrackingId);
  const { project } = loaded;
  let { item } = loaded;
  const eventName = input.eventName ?? item.rewardEventName ?? DEFAULT_REWARD_EVENT_NAME;
  const environment = input.environment ?? null;
  if (!isBound(item)) {
    const { refereeId } = input;
    if (refereeId === undefined) throw unbound();
    const binding = await db.$transaction(async (tx) => {
      const { user } = await getOrCreateAppUser(tx, project.id, { clientProvidedId: refereeId });
      return bindReferee(tx, project.id, user, { kind: "tracking", referralTrackingId: item.id });
    });
    if (!binding.bound && binding.reason === "self_referral") return refuseSelfReferral(db, { project, item, eventName, environment });
    // Bound now, by this call or (then to someone else: refused below) by a concurrent one.
    ({ item } = await loadRewardItem(db, organizationId, projectId, input.referralTrackingId));
  }
  if (!isBound(item)) throw unbound();
  if (input.refereeId !== undefined && input.refereeId !== item.refereeClientId) throw otherReferee(item);
  const ctx: RewardContext = { project, item, eventName, environment };
  const decision = decideReward({
    item,
    eventName: input.eventName ?? null,
    attributionWindowDays: item.attributionWindowDays,
    now: new Date(),
    // Read with the item, so that a pair rewarded earlier fails without a transaction that would
    // only roll back; a pair rewarded since is refused by RewardHistory's unique key (see claimReward).
    pairAlreadyRewarded: item.pairRewarded,
  });
  switch (decision.kind) {
    case "final":
      return rejectFinalItem(db, ctx);
    case "record":
      return recordIndependentEvent(db, ctx);
    case "fail":
      return failReward(db, ctx, decision.reason);
    case "complete":
      return claimReward(db, ctx);
  }
}

const unbound = () =>
  new DomainError(
    "conflict",
    "This referral tracking item has no referee yet (it was tracked anonymously). Pass RefereeId, the new user's clientProvidedId, " +
      "to bind and reward it in one call, or identify the user first (the client library's init-app-user with this tracking id).",
  );

const otherReferee = (item: RewardItem) =>
  new DomainError("conflict", `This referral tracking item's referee is another app user ("${item.refereeClientId}"); report the event for that user.`);
