import type { Prisma, RewardEnvironment, RewardEventOutcome } from "@/generated/prisma/client";
import { DELIVERY_COLUMNS, DELIVERY_JOINS, toDeliveryDto, type DeliveryDto, type DeliveryRow } from "@/server/domain/deliveries/delivery-dto";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import type { RevokeSource } from "./revoke-referral";
import { toReferralDto, withParties, type ReferralDto } from "./to-referral-dto";

/** A reward event reported for a tracking item, and what came of it. */
export type RewardEventDto = {
  id: string;
  eventName: string | null;
  environment: RewardEnvironment | null;
  outcome: RewardEventOutcome;
  /** Why it was not Claimed (a REWARD_REASONS code); null when it was. */
  reason: string | null;
  at: string;
};

export type ReferralDetailDto = {
  referral: ReferralDto;
  rewardEvents: RewardEventDto[];
  deliveries: DeliveryDto[];
  revocation: { revokedAt: string; reason: string; revokedBy: RevokeSource } | null;
};

/**
 * Everything support needs to answer "why did this reward not arrive": the tracking item, every reward
 * event reported for it (oldest first) with its outcome and reason, and the deliveries of its reward.
 */
export async function getReferral(db: Prisma.TransactionClient, organizationId: string, projectId: string, trackingId: string): Promise<ReferralDetailDto> {
  await getOwnedProject(db, organizationId, projectId);
  const item = await db.referralTracking.findFirst({ where: { id: trackingId, projectId }, include: withParties });
  if (!item) throw notFound("Referral");
  const [events, deliveries] = await Promise.all([
    db.rewardEvent.findMany({ where: { trackingId, projectId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    db.$queryRaw<DeliveryRow[]>`
      SELECT ${DELIVERY_COLUMNS} FROM "Delivery" d ${DELIVERY_JOINS}
      WHERE d."trackingId" = ${trackingId} AND d."projectId" = ${projectId} ORDER BY d."createdAt", d."id"`,
  ]);
  const now = new Date();
  return {
    referral: toReferralDto(item),
    rewardEvents: events.map((event) => ({
      id: event.id,
      eventName: event.eventName,
      environment: event.environment,
      outcome: event.outcome,
      reason: event.reason,
      at: event.createdAt.toISOString(),
    })),
    deliveries: deliveries.map((row) => toDeliveryDto(row, now)),
    revocation:
      item.status === "Revoked" && item.revokedAt
        ? { revokedAt: item.revokedAt.toISOString(), reason: item.revokeReason ?? "", revokedBy: (item.revokedBy ?? "api") as RevokeSource }
        : null,
  };
}
