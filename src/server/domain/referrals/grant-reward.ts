import type { RewardEnvironment } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import type { DeliveryLease } from "@/server/domain/deliveries/claim-attempts";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { DomainError } from "@/server/domain/errors";
import { bindReferee } from "./bind-referee";
import { readRewardRules, setsNoRule } from "@/lib/schemas/reward-rules";
import { readMilestones } from "@/lib/schemas/portal";
import { metrics } from "@/server/observability/metrics";
import { judgeRewardRules } from "@/server/domain/reward-rules/judge-reward-rules";
import { reachedCap } from "@/server/domain/reward-rules/referrer-caps";
import { claimIfEligible, claimReward, type EligibleClaim } from "./claim-reward";
import { holdReward, reportHeldItem } from "./hold-reward";
import { decideReward } from "./decide-reward";
import { isBound, loadRewardItem, type RewardItem } from "./load-reward-item";
import { failReward, recordIndependentEvent, refuseSelfReferral, rejectFinalItem } from "./refuse-reward";
import { DEFAULT_REWARD_EVENT_NAME, type GrantRewardResult, type RewardContext } from "./reward-context";

export type { GrantRewardResult } from "./reward-context";

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
 * the item, the referee, or the pair of users either way round. A claim writes its deliveries with
 * their first attempts under `lease`, if given; the result says what it wrote. Callers go through
 * reportRewardEvent, which hands that to the outbox.
 */
export async function grantReward(
  db: Db,
  organizationId: string,
  projectId: string,
  input: GrantRewardInput,
  lease: DeliveryLease | null = null,
  now = new Date(),
): Promise<GrantRewardResult> {
  const target = { organizationId, projectId, trackingId: input.referralTrackingId, now };
  const reported = { eventName: input.eventName ?? null, refereeClientId: input.refereeId ?? null, environment: input.environment ?? null };
  // One statement when nothing is left to decide; otherwise the item's facts, for the checks below.
  const skipped = readsFirst(projectId, now);
  const first: EligibleClaim = skipped ? { loaded: await loadRewardItem(db, organizationId, projectId, input.referralTrackingId, now) } : await claimIfEligible(db, target, reported, lease);
  metrics.rewardFirstStatements.inc({ result: skipped ? "skipped" : first.result ? "claimed" : "declined" });
  if (first.result) return first.result;
  const { loaded } = first;
  remember(projectId, loaded.item, now);
  const { project } = loaded;
  let { item } = loaded;
  const eventName = input.eventName ?? item.rewardEventName ?? DEFAULT_REWARD_EVENT_NAME;
  const environment = input.environment ?? null;
  // Erasing a referrer fails their Pending items, so an item without one is final.
  if (loaded.referrerErased) return rejectFinalItem(db, { project, item, eventName, environment });
  const { refereeId } = input;
  if (!isBound(item) && refereeId !== undefined) {
    const binding = await db.$transaction(async (tx) => {
      const { user } = await getOrCreateAppUser(tx, project.id, { clientProvidedId: refereeId });
      return bindReferee(tx, project.id, user, { kind: "tracking", referralTrackingId: item.id });
    });
    if (!binding.bound && binding.reason === "self_referral") return refuseSelfReferral(db, { project, item, eventName, environment });
    // Bound now, by this call or (then to someone else: refused below) by a concurrent one.
    ({ item } = await loadRewardItem(db, organizationId, projectId, input.referralTrackingId, now));
  }
  if (refereeId !== undefined && refereeId !== item.refereeClientId) throw otherReferee(item);
  const ctx: RewardContext<RewardItem> = { project, item, eventName, environment };
  // The facts are read with the item, so that a referee or pair rewarded earlier fails without a
  // transaction that would only roll back; one rewarded since is refused by RewardHistory's unique
  // indexes (see claimReward). An item still without a referee only records the event.
  const decision = decideReward({ ...item, item, eventName: input.eventName ?? null, now });
  if (decision.kind === "final") return rejectFinalItem(db, ctx);
  if (decision.kind === "record") return recordIndependentEvent(db, ctx, decision.reason);
  // decideReward only records the event of an item without a referee: this one has one.
  if (!isBound(item)) throw new Error(`Reward decision "${decision.kind}" for tracking item ${item.id}, which has no referee.`);
  const bound = { ...ctx, item };
  if (decision.kind === "fail") return failReward(db, bound, decision.reason);
  if (item.inReview) return reportHeldItem(db, bound);
  // The campaign's reward rules, all off by default. A cap already reached refuses now rather than
  // holding a reward that could never complete; the claim counts again under the referrer's lock.
  const rules = readRewardRules(item.rewardRules);
  if (await reachedCap(db, item.referrerId, rules.maxRewardsPerReferrer, now)) return failReward(db, bound, "referrer_cap_reached");
  const verdict = await judgeRewardRules(db, item, rules, now);
  if (verdict.kind === "block") return failReward(db, bound, verdict.reason);
  if (verdict.kind === "hold") return holdReward(db, bound, verdict, now);
  return claimReward(db, bound, lease, { now, caps: rules.maxRewardsPerReferrer });
}

/**
 * Projects whose campaign set a reward rule or a milestone when a reward last read it, and until when
 * their rewards read the item first: the first statement claims only for a campaign that sets neither,
 * so for them it could only decline. A hint, never a decision: the statement checks the campaign
 * itself, so a stale entry costs a round trip, and a campaign read without either clears it.
 */
const readFirstUntil = new Map<string, number>();
const READ_FIRST_MS = 60_000;
const MAX_READ_FIRST = 10_000;

const readsFirst = (projectId: string, now: Date) => (readFirstUntil.get(projectId) ?? 0) > now.getTime();

function remember(projectId: string, item: RewardItem, now: Date) {
  if (setsNoRule(readRewardRules(item.rewardRules)) && readMilestones(item.milestones).length === 0) {
    readFirstUntil.delete(projectId);
    return;
  }
  if (readFirstUntil.size >= MAX_READ_FIRST) readFirstUntil.clear();
  readFirstUntil.set(projectId, now.getTime() + READ_FIRST_MS);
}

const otherReferee = (item: RewardItem) =>
  new DomainError("conflict", `This referral tracking item's referee is another app user ("${item.refereeClientId}"); report the event for that user.`);
