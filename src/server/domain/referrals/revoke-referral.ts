import type { Prisma, RewardEnvironment, TrackingStatus } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { recordActivity } from "@/server/domain/activity/record-activity";
import { recordAudit, type AuditActor } from "@/server/domain/audit/record-audit";
import { writeEventDeliveries } from "@/server/domain/deliveries/insert-event-deliveries";
import type { DeliveryOutbox, OutboxWrite } from "@/server/domain/deliveries/outbox";
import { DomainError, notFound } from "@/server/domain/errors";
import type { REVOKE_SOURCES } from "@/lib/schemas/referrals";
import { REWARD_TX } from "./refuse-reward";

/** What took a referral's reward back. */
export type RevokeSource = (typeof REVOKE_SOURCES)[number];

export type RevokeInput = { trackingId: string; reason: string; source: RevokeSource };

/**
 * What a revocation did: `granted` (a granted reward withdrawn, reward.revoked sent), `held` (a held
 * reward cancelled: it never grants, nothing is sent), or `already_revoked` (a no-op: the referral was
 * revoked before; `revokedAt` and `reason` are the first revocation's).
 */
export type RevokeOutcome = {
  referralTrackingId: string;
  status: "Revoked";
  revoked: "granted" | "held" | "already_revoked";
  revokedAt: string;
  reason: string;
  revokedBy: RevokeSource;
};

type Item = {
  status: TrackingStatus;
  referrerId: string | null;
  refereeId: string | null;
  campaignId: string;
  referrerClientId: string | null;
  refereeClientId: string | null;
  rewardClaimedAt: Date | null;
  revokedAt: Date | null;
  revokeReason: string | null;
  revokedBy: string | null;
};

/**
 * Takes a referral's reward back, the one way back for every caller (REST, dashboard, provider hooks).
 * In one transaction, locking as the review decision and the claim do (the review row, then the
 * item), so a concurrent grant either finishes first (and is then withdrawn) or finds the item
 * Revoked: a held reward leaves the review queue and the item is Revoked without a reward; a granted
 * one loses its reward history row (so every count, cap and ranking counts it out) and the referrer's
 * successfulReferrals, and reward.revoked goes to the subscribed webhooks, routed as the grant was.
 * A referral already Revoked answers `already_revoked`; one with no reward granted or held (Pending,
 * Failed) is a 409 naming its state; an unknown or foreign one a 404.
 */
export async function revokeReferral(
  deps: { db: Db; outbox: DeliveryOutbox },
  projectId: string,
  input: RevokeInput,
  /** A person's or a key's revocation is audited in its transaction; a provider's is its inbound event. */
  audit: { organizationId: string; actor: AuditActor } | null = null,
  now: Date = new Date(),
): Promise<RevokeOutcome> {
  const { outcome, written } = await deps.db.$transaction(async (tx) => {
    const result = await revokeIn(tx, projectId, input, now);
    if (audit && result.outcome.revoked !== "already_revoked") {
      await recordAudit(tx, audit.organizationId, audit.actor, {
        action: "referral.revoke",
        target: { type: "referralTracking", id: input.trackingId },
        details: { projectId, revoked: result.outcome.revoked, reason: input.reason },
      });
    }
    return result;
  }, REWARD_TX);
  if (written) await deps.outbox.dispatch(written);
  return outcome;
}

async function revokeIn(tx: Prisma.TransactionClient, projectId: string, input: RevokeInput, now: Date): Promise<{ outcome: RevokeOutcome; written: OutboxWrite | null }> {
  const { trackingId } = input;
  // First, as a review decision does: of a revocation and a decision, one takes the held reward.
  const held = await tx.$executeRaw`DELETE FROM "RewardReview" WHERE "trackingId" = ${trackingId} AND "projectId" = ${projectId}`;
  // Then the item, waiting for a claim in flight to commit (READ COMMITTED reads the row as it then stands).
  const [item] = await tx.$queryRaw<Item[]>`
    SELECT t."status", t."referrerId", t."refereeId", t."campaignId", r."clientProvidedId" AS "referrerClientId", e."clientProvidedId" AS "refereeClientId",
      t."rewardClaimedAt", t."revokedAt", t."revokeReason", t."revokedBy"
    FROM "ReferralTracking" t
    LEFT JOIN "AppUser" r ON r."id" = t."referrerId"
    LEFT JOIN "AppUser" e ON e."id" = t."refereeId"
    WHERE t."id" = ${trackingId} AND t."projectId" = ${projectId}
    FOR UPDATE OF t`;
  if (!item) throw notFound("Referral");
  const outcome = (revoked: RevokeOutcome["revoked"], at: Date, reason: string, by: RevokeSource): RevokeOutcome => ({
    referralTrackingId: trackingId,
    status: "Revoked",
    revoked,
    revokedAt: at.toISOString(),
    reason,
    revokedBy: by,
  });
  if (item.status === "Revoked") return { outcome: outcome("already_revoked", item.revokedAt ?? now, item.revokeReason ?? "", (item.revokedBy ?? "api") as RevokeSource), written: null };
  if (item.status === "Failed" || (item.status === "Pending" && held === 0)) throw notRevocable(item.status);

  const mark = () => tx.$executeRaw`
    UPDATE "ReferralTracking" SET "status" = 'Revoked', "rewardClaimed" = false, "revokedAt" = ${now}, "revokeReason" = ${input.reason}, "revokedBy" = ${input.source}, "updatedAt" = ${now}
    WHERE "id" = ${trackingId}`;
  const who = `${item.referrerClientId ?? "an erased referrer"} referring ${item.refereeClientId ?? "an erased referee"}`;
  if (item.status === "Pending") {
    await mark();
    await recordActivity(tx, {
      projectId,
      appUserId: item.referrerId,
      trackingId,
      type: "reward_revoked",
      description: `The held reward for ${who} was cancelled (${input.source}): ${input.reason}`,
    });
    return { outcome: outcome("held", now, input.reason, input.source), written: null };
  }

  // Completed: the reward history row goes, so every count of rewards (caps, top referrers, the
  // overview's days and the referrer's successfulReferrals, through their triggers) counts it out;
  // its unique keys go with it.
  const [reward] = await tx.$queryRaw<{ referrerId: string | null; eventName: string | null; environment: RewardEnvironment | null; claimedAt: Date }[]>`
    DELETE FROM "RewardHistory" WHERE "trackingId" = ${trackingId} RETURNING "referrerId", "eventName", "environment", "claimedAt"`;
  await mark();
  await recordActivity(tx, {
    projectId,
    appUserId: item.referrerId,
    trackingId,
    type: "reward_revoked",
    description: `The reward for ${who} was revoked (${input.source}): ${input.reason}`,
  });
  const written = await writeEventDeliveries(
    tx,
    {
      type: "reward.revoked",
      projectId,
      trackingId,
      parties: { referrerId: item.referrerId, refereeId: item.refereeId },
      environment: reward?.environment ?? null,
      payload: {
        trackingId,
        event: reward?.eventName ?? null,
        referrerId: item.referrerClientId,
        refereeId: item.refereeClientId,
        rewardClaimedAt: (reward?.claimedAt ?? item.rewardClaimedAt)?.toISOString() ?? null,
        revokedAt: now.toISOString(),
        reason: input.reason,
        revokedBy: input.source,
        rewardStatus: "Revoked",
        projectId,
        campaignId: item.campaignId,
      },
    },
    now,
  );
  return { outcome: outcome("granted", now, input.reason, input.source), written };
}

/** A referral with no reward granted or held: nothing to take back. */
function notRevocable(status: TrackingStatus): DomainError {
  const message =
    status === "Failed"
      ? "The referral is Failed: it never earned a reward, so there is nothing to revoke."
      : "The referral is Pending: no reward was granted or held for it yet, so there is nothing to revoke.";
  return new DomainError("conflict", message, [{ field: "status", rule: status === "Failed" ? "failed" : "pending", message }]);
}
