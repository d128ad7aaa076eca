import type { Prisma, RewardEnvironment } from "@/generated/prisma/client";
import { readRewardRules } from "@/lib/schemas/reward-rules";
import type { Db } from "@/server/db/client";
import { recordAudit, type AuditActor } from "@/server/domain/audit/record-audit";
import type { DeliveryOutbox } from "@/server/domain/deliveries/outbox";
import { conflict, notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { claimRewardIn } from "@/server/domain/referrals/claim-reward";
import { decideReward } from "@/server/domain/referrals/decide-reward";
import { isBound, loadRewardItem } from "@/server/domain/referrals/load-reward-item";
import { failRewardIn, REWARD_TX } from "@/server/domain/referrals/refuse-reward";
import type { GrantRewardResult, RewardOutcome } from "@/server/domain/referrals/reward-context";
import type { DeliveryLease } from "@/server/domain/deliveries/claim-attempts";

export type ReviewTarget = { organizationId: string; projectId: string };
export type ReviewDecision = "approve" | "deny";

type Taken = { eventName: string; environment: RewardEnvironment | null; reasons: string[]; createdAt: Date };

/**
 * A person's (or, for an ended hold, the scheduler's) decision on a held reward. Taking the item's
 * review row (DELETE ... RETURNING) is the first statement of the decision's transaction: of any
 * number of concurrent decisions exactly one takes it, the others find nothing and answer 409. The
 * row comes back if the transaction fails, so a crash loses no held reward.
 *
 * Approving completes the reward exactly as the reward call would have: the eligibility checks again
 * (as of the moment it was held, so a hold longer than the attribution window does not expire it), the
 * referrer's caps at the decision's time, then the claim with its reward history, counters and outbox
 * rows, dispatched after the commit. Denying fails the item (`denied_in_review`). Every decision is
 * kept in the queue's history (ReviewDecision, with the reviewer's `note`), and one made by a person is
 * audited, in the same transaction.
 */
export async function decideReview(
  deps: { db: Db; outbox: DeliveryOutbox },
  target: ReviewTarget,
  trackingId: string,
  decision: ReviewDecision,
  actor: AuditActor | null,
  now = new Date(),
  note: string | null = null,
): Promise<RewardOutcome> {
  const project = await getOwnedProject(deps.db, target.organizationId, target.projectId);
  const lease = decision === "approve" ? await deps.outbox.lease() : null;
  const { written, alsoWritten = [], ...outcome } = await deps.db.$transaction(async (tx) => {
    const taken = await take(tx, project.id, trackingId);
    const result = await decideTaken(tx, target, trackingId, taken, decision, lease, now);
    await tx.reviewDecision.create({
      data: {
        projectId: project.id,
        trackingId,
        decision,
        note,
        heldFor: taken.reasons,
        status: result.status,
        failureReason: result.reason ?? null,
        actorType: actor?.type ?? null,
        actorLabel: actor?.label ?? null,
        decidedAt: now,
      },
    });
    if (actor) {
      await recordAudit(tx, target.organizationId, actor, {
        action: decision === "approve" ? "review.approve" : "review.deny",
        target: { type: "referralTracking", id: trackingId },
        details: { projectId: project.id, heldFor: taken.reasons, status: result.status, ...(result.reason ? { reason: result.reason } : {}), ...(note ? { note } : {}) },
      });
    }
    return result;
  }, REWARD_TX);
  if (written) await deps.outbox.dispatch(written);
  for (const write of alsoWritten) await deps.outbox.dispatch(write);
  return outcome;
}

async function take(tx: Prisma.TransactionClient, projectId: string, trackingId: string): Promise<Taken> {
  const [taken] = await tx.$queryRaw<Taken[]>`
    DELETE FROM "RewardReview" WHERE "trackingId" = ${trackingId} AND "projectId" = ${projectId}
    RETURNING "eventName", "environment"::text AS "environment", "reasons", "createdAt"`;
  if (taken) return taken;
  const item = await tx.referralTracking.findFirst({ where: { id: trackingId, projectId }, select: { status: true } });
  if (!item) throw notFound("Referral tracking item");
  throw conflict(`This referral is not in the review queue (it is ${item.status}${item.status === "Pending" ? " and not held" : ""}); only a held reward can be approved or denied.`);
}

async function decideTaken(
  tx: Prisma.TransactionClient,
  target: ReviewTarget,
  trackingId: string,
  taken: Taken,
  decision: ReviewDecision,
  lease: DeliveryLease | null,
  now: Date,
): Promise<GrantRewardResult> {
  // As of the moment it was held: the window's expiry and the other arrivals are judged then.
  const { project, item } = await loadRewardItem(tx, target.organizationId, target.projectId, trackingId, taken.createdAt);
  // Erasure and failing an item delete its review, so a taken item is Pending with both parties.
  if (!isBound(item)) throw new Error(`Held tracking item ${item.id} has no referee.`);
  const ctx = { project, item, eventName: taken.eventName, environment: taken.environment };
  if (decision === "deny") return failRewardIn(tx, ctx, "denied_in_review");
  const checked = decideReward({ ...item, item, eventName: taken.eventName, now: taken.createdAt });
  if (checked.kind === "fail") return failRewardIn(tx, ctx, checked.reason);
  if (checked.kind !== "complete") throw new Error(`Held tracking item ${item.id} decided "${checked.kind}" on approval.`);
  return claimRewardIn(tx, ctx, lease, { now, caps: readRewardRules(item.rewardRules).maxRewardsPerReferrer });
}
