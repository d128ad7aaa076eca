import type { RewardReason } from "@/lib/schemas/referrals";
import type { TrackingStatus } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import type { AuditActor } from "@/server/domain/audit/record-audit";
import type { DeliveryOutbox } from "@/server/domain/deliveries/outbox";
import { DomainError } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { decideReview, type ReviewDecision, type ReviewTarget } from "./decide-review";

/**
 * One item's outcome: `granted` (the reward completed), `failed` (a check refused it on approval, or
 * it was denied: `reason` says which), `not_in_review` (decided already, by a concurrent decision too,
 * or never held) or `not_found` (no such item in the project).
 */
export type DecisionOutcome = "granted" | "failed" | "not_in_review" | "not_found";
export type DecidedItem = { trackingId: string; outcome: DecisionOutcome; status: TrackingStatus | null; reason: RewardReason | null };

/**
 * A decision on several held rewards: each item decided on its own (its own transaction, audit entry
 * and history row, exactly as one decision), one after another in the order given, so that caps count
 * the rewards granted before it. An item that cannot be decided does not stop the others: every item
 * gets its own outcome, which is what the reviewer must see (a bulk "approved" hides refusals).
 */
export async function decideReviews(
  deps: { db: Db; outbox: DeliveryOutbox },
  target: ReviewTarget,
  trackingIds: string[],
  decision: ReviewDecision,
  actor: AuditActor | null,
  note: string | null = null,
): Promise<{ items: DecidedItem[] }> {
  await getOwnedProject(deps.db, target.organizationId, target.projectId);
  const items: DecidedItem[] = [];
  for (const trackingId of new Set(trackingIds)) {
    try {
      const result = await decideReview(deps, target, trackingId, decision, actor, new Date(), note);
      items.push({ trackingId, outcome: result.rewardClaimed ? "granted" : "failed", status: result.status, reason: result.reason ?? null });
    } catch (error) {
      if (!(error instanceof DomainError) || (error.kind !== "conflict" && error.kind !== "not_found")) throw error;
      items.push({ trackingId, outcome: error.kind === "conflict" ? "not_in_review" : "not_found", status: null, reason: null });
    }
  }
  return { items };
}
