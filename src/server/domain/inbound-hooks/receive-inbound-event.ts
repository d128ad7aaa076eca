import type { InboundEvent, InboundOutcome } from "@/generated/prisma/client";
import { INBOUND_PROVIDER_LABELS, type InboundAnswer, type InboundIgnoreReason } from "@/lib/schemas/inbound-hooks";
import type { Db } from "@/server/db/client";
import type { DeliveryOutbox } from "@/server/domain/deliveries/outbox";
import { reportRewardEvent } from "@/server/domain/referrals/report-reward-event";
import { revokeReferral } from "@/server/domain/referrals/revoke-referral";
import { DomainError } from "@/server/domain/errors";
import { readRevokeOn, type RevokeKind } from "@/lib/schemas/reward-rules";
import type { FoundHook } from "./find-hook-by-token";
import type { InboundConversion } from "./inbound-conversion";

/** A claim older than this was left by a process that died while handling the event: a retry takes it over. */
export const STALE_CLAIM_MS = 5 * 60_000;

type Settled = { outcome: InboundOutcome; reason?: string; refereeId?: string | null; eventName?: string; trackingId?: string };

/**
 * Handles one verified provider event exactly once per provider event id. The event's row is inserted
 * first, as the claim on the id (unique per project and provider): of any number of deliveries of one
 * event, concurrent or later, one runs the reward path and the others answer what it recorded (or that
 * it is still running) and change nothing. The reward path is the one track-reward-event runs, for
 * the referee's most recent Pending tracking item, with the event's environment routing the webhooks.
 * If handling fails, the claim is released so that the provider's retry runs it again.
 */
export async function receiveInboundEvent(deps: { db: Db; outbox: DeliveryOutbox }, hook: FoundHook, event: InboundConversion): Promise<InboundAnswer> {
  const { db } = deps;
  const claimed = await claim(db, hook, event);
  if (!claimed.mine) return duplicateAnswer(claimed.row);
  let settled: Settled;
  try {
    settled = await settle(deps, hook, event, claimed.row.id);
  } catch (error) {
    await db.inboundEvent.deleteMany({ where: { id: claimed.row.id, outcome: null } }).catch(() => undefined);
    throw error;
  }
  await db.inboundEvent.update({
    where: { id: claimed.row.id },
    data: { outcome: settled.outcome, reason: settled.reason ?? null, refereeId: settled.refereeId ?? null, eventName: settled.eventName ?? null, trackingId: settled.trackingId ?? null },
  });
  return { received: true, outcome: settled.outcome, ...(settled.reason ? { reason: settled.reason } : {}) };
}

async function claim(db: Db, hook: FoundHook, event: InboundConversion): Promise<{ mine: boolean; row: InboundEvent }> {
  const key = { projectId: hook.projectId, provider: event.provider, providerEventId: event.providerEventId };
  const [created] = await db.inboundEvent.createManyAndReturn({
    data: [{ ...key, type: event.type, environment: event.environment, refereeId: event.refereeCandidates[0] ?? null, productId: event.productId ?? null, periodType: event.periodType ?? null, refs: event.refs }],
    skipDuplicates: true,
  });
  if (created) return { mine: true, row: created };
  const row = await db.inboundEvent.findUniqueOrThrow({ where: { projectId_provider_providerEventId: key } });
  if (row.outcome !== null || Date.now() - row.claimedAt.getTime() < STALE_CLAIM_MS) return { mine: false, row };
  // Taken over only if nobody else did since it was read.
  const taken = await db.inboundEvent.updateMany({ where: { id: row.id, outcome: null, claimedAt: row.claimedAt }, data: { claimedAt: new Date() } });
  return { mine: taken.count === 1, row };
}

const duplicateAnswer = (row: InboundEvent): InboundAnswer => ({
  received: true,
  outcome: row.outcome ?? "processing",
  ...(row.reason ? { reason: row.reason } : {}),
  duplicate: true,
});

const ignore = (reason: InboundIgnoreReason, refereeId?: string | null): Settled => ({ outcome: "ignored", reason, refereeId });

async function settle(deps: { db: Db; outbox: DeliveryOutbox }, hook: FoundHook, event: InboundConversion, eventRowId: string): Promise<Settled> {
  const { db } = deps;
  if (event.reversal) return settleReversal(deps, hook, event, event.reversal);
  const user = await findReferee(db, hook.projectId, event.refereeCandidates);
  const refereeId = user?.clientProvidedId ?? event.refereeCandidates[0] ?? null;
  let { conversion } = event;
  if (conversion === "after_trial") conversion = (await followsTrial(db, hook.projectId, event, eventRowId)) ? true : { ignored: "not_a_conversion" };
  if (conversion !== true) return ignore(conversion.ignored, refereeId);
  if (!event.refereeCandidates.length) return ignore("no_referee");
  if (!user) return ignore("unknown_user", refereeId);
  const pending = await db.referralTracking.findFirst({
    where: { projectId: hook.projectId, refereeId: user.id, status: "Pending" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true },
  });
  if (!pending) return ignore("no_pending_referral", refereeId);
  const eventName = hook.eventNames[event.type] ?? event.type;
  const outcome = await reportRewardEvent(
    deps,
    { organizationId: hook.organizationId, projectId: hook.projectId },
    { referralTrackingId: pending.id, eventName, environment: event.environment, refereeId: user.clientProvidedId },
  );
  return {
    outcome: outcome.rewardClaimed ? "rewarded" : "refused",
    reason: outcome.reason,
    refereeId,
    eventName,
    trackingId: pending.id,
  };
}

/** The first candidate that is an app user of the project, in the candidates' order. */
async function findReferee(db: Db, projectId: string, candidates: string[]) {
  if (!candidates.length) return null;
  const users = await db.appUser.findMany({ where: { projectId, clientProvidedId: { in: candidates } }, select: { id: true, clientProvidedId: true } });
  for (const id of candidates) {
    const user = users.find((u) => u.clientProvidedId === id);
    if (user) return user;
  }
  return null;
}

/** The last RevenueCat event recorded before this one for the same user and product was in a free trial. */
async function followsTrial(db: Db, projectId: string, event: InboundConversion, eventRowId: string): Promise<boolean> {
  if (!event.productId || !event.refereeCandidates.length) return false;
  const previous = await db.inboundEvent.findFirst({
    where: { projectId, provider: "revenuecat", productId: event.productId, refereeId: { in: event.refereeCandidates }, id: { not: eventRowId } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { periodType: true },
  });
  return previous?.periodType === "TRIAL";
}

/**
 * A refund, dispute or cancellation in trial: the referral that the original conversion completed
 * (found by the ids the conversion kept: a payment intent, invoice, charge or subscription first, the
 * customer only when none of those matches) is revoked, if the campaign's revokeOn says so. Either way
 * the event says what it did: `revoked`, or `ignored` with why.
 */
async function settleReversal(deps: { db: Db; outbox: DeliveryOutbox }, hook: FoundHook, event: InboundConversion, reversal: NonNullable<InboundConversion["reversal"]>): Promise<Settled> {
  if (typeof reversal !== "string") return ignore(reversal.ignored);
  const campaign = await deps.db.campaign.findUnique({ where: { projectId: hook.projectId }, select: { revokeOn: true } });
  if (!readRevokeOn(campaign?.revokeOn)[reversal]) return ignore("revocation_off");
  const trackingId = await completedBy(deps.db, hook.projectId, event);
  if (!trackingId) return ignore("no_matching_referral");
  const label = `${INBOUND_PROVIDER_LABELS[event.provider]} ${event.type} (${event.providerEventId})`;
  try {
    const { revoked } = await revokeReferral(deps, hook.projectId, { trackingId, reason: `${REVERSAL_WORDS[reversal]}: ${label}`, source: event.provider });
    if (revoked === "already_revoked") return { ...ignore("already_revoked"), trackingId };
    return { outcome: "revoked", reason: reversal, trackingId };
  } catch (error) {
    if (error instanceof DomainError && error.kind === "conflict") return { ...ignore("not_revocable"), trackingId };
    throw error;
  }
}

const REVERSAL_WORDS: Record<RevokeKind, string> = { refund: "Refunded in full", dispute: "Disputed (chargeback)", trialCancellation: "Cancelled in trial" };

/** The tracking item the provider's conversion with one of the event's ids completed (or holds for review). */
async function completedBy(db: Db, projectId: string, event: InboundConversion): Promise<string | null> {
  const specific = event.refs.filter((ref) => !ref.startsWith("cus_"));
  for (const refs of [specific, event.refs]) {
    if (!refs.length) continue;
    const [row] = await db.$queryRaw<{ trackingId: string }[]>`
      SELECT "trackingId" FROM "InboundEvent"
      WHERE "projectId" = ${projectId} AND "provider" = CAST(${event.provider} AS "InboundProvider") AND "trackingId" IS NOT NULL
        AND ("outcome" = 'rewarded' OR ("outcome" = 'refused' AND "reason" = 'held_for_review')) AND "refs" && ${refs}::text[]
      ORDER BY "createdAt" DESC LIMIT 1`;
    if (row) return row.trackingId;
  }
  return null;
}
