import type { Db } from "@/server/db/client";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { toReferralDto, withParties, type ReferralDto } from "@/server/domain/referrals/to-referral-dto";
import { appUserDtoInclude, toAppUserDto, type AppUserDto } from "./to-app-user-dto";

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Everything the service holds about one app user, as one document (GDPR Art. 15 and 20). */
export type AppUserExport = {
  exportedAt: string;
  projectId: string;
  /** The user record, attributes included. */
  user: AppUserDto;
  referralsGiven: ReferralDto[];
  referralsReceived: ReferralDto[];
  /** Reward history entries naming the user, as referrer or referee. */
  rewards: { trackingId: string; role: "referrer" | "referee"; eventName: string | null; environment: string | null; claimedAt: string }[];
  /** Every reward event reported for their referrals. */
  rewardEvents: { id: string; trackingId: string | null; eventName: string | null; environment: string | null; outcome: string; reason: string | null; createdAt: string }[];
  /** Webhook deliveries whose stored body names them, with that body. */
  deliveries: { deliveryId: string; webhookId: string; trackingId: string | null; event: string; status: string; createdAt: string; body: unknown }[];
  /** Landing-page clicks attributed to them (Mobile projects' deferred deep links). */
  landingClicks: {
    id: string;
    referralCode: string;
    os: string | null;
    osVersion: string | null;
    screenSize: string | null;
    timezone: string | null;
    locale: string | null;
    ipAddress: string | null;
    userAgent: string | null;
    createdAt: string;
    matchedAt: string | null;
    matchMethod: string | null;
  }[];
  /** Where their client was seen from (kept only while a campaign's same-device rule is on). */
  sightings: { kind: string; value: string; firstSeenAt: string; lastSeenAt: string }[];
  /** Inbound provider events (Stripe, RevenueCat) that named them as the referee. */
  inboundEvents: {
    id: string;
    provider: string;
    providerEventId: string;
    type: string;
    environment: string;
    eventName: string | null;
    trackingId: string | null;
    outcome: string | null;
    reason: string | null;
    productId: string | null;
    createdAt: string;
  }[];
  /** Their timeline. */
  activity: { id: string; type: string; description: string; createdAt: string }[];
};

export async function exportAppUser(db: Db, organizationId: string, projectId: string, uniqueId: string, now = new Date()): Promise<AppUserExport> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const user = await db.appUser.findFirst({ where: { id: uniqueId, projectId: project.id }, include: appUserDtoInclude });
  if (!user) throw notFound("App user");
  const order = [{ createdAt: "asc" as const }, { id: "asc" as const }];
  const [given, received, rewards, clicks, sightings, activity, inbound] = await Promise.all([
    db.referralTracking.findMany({ where: { referrerId: user.id }, include: withParties, orderBy: order }),
    db.referralTracking.findMany({ where: { refereeId: user.id }, include: withParties, orderBy: order }),
    db.rewardHistory.findMany({ where: { OR: [{ referrerId: user.id }, { refereeId: user.id }] }, orderBy: [{ claimedAt: "asc" }, { id: "asc" }] }),
    db.linkClick.findMany({ where: { projectId: project.id, matchedAppUserId: user.id }, orderBy: order }),
    db.appUserSighting.findMany({ where: { appUserId: user.id }, orderBy: [{ firstSeenAt: "asc" }, { id: "asc" }] }),
    db.activity.findMany({ where: { appUserId: user.id }, orderBy: order }),
    db.inboundEvent.findMany({ where: { projectId: project.id, refereeId: user.clientProvidedId }, orderBy: order }),
  ]);
  const trackingIds = [...given, ...received].map((t) => t.id);
  const [events, deliveries] = await Promise.all([
    db.rewardEvent.findMany({ where: { trackingId: { in: trackingIds } }, orderBy: order }),
    db.$queryRaw<{ id: string; webhookId: string; trackingId: string | null; eventName: string; status: string; createdAt: Date; payload: unknown }[]>`
      SELECT d."id", d."webhookId", d."trackingId", d."eventName", d."status"::text AS "status", d."createdAt", d."payload"
      FROM "Delivery" d
      WHERE d."projectId" = ${project.id} AND d."trackingId" = ANY(${trackingIds}::text[])
        AND (d."payload"->>'referrerId' = ${user.clientProvidedId} OR d."payload"->>'refereeId' = ${user.clientProvidedId})
      ORDER BY d."createdAt", d."id"`,
  ]);
  return {
    exportedAt: now.toISOString(),
    projectId: project.id,
    user: toAppUserDto(user),
    referralsGiven: given.map(toReferralDto),
    referralsReceived: received.map(toReferralDto),
    rewards: rewards.map((r) => ({
      trackingId: r.trackingId,
      role: r.referrerId === user.id ? "referrer" : "referee",
      eventName: r.eventName,
      environment: r.environment,
      claimedAt: r.claimedAt.toISOString(),
    })),
    rewardEvents: events.map((e) => ({
      id: e.id,
      trackingId: e.trackingId,
      eventName: e.eventName,
      environment: e.environment,
      outcome: e.outcome,
      reason: e.reason,
      createdAt: e.createdAt.toISOString(),
    })),
    deliveries: deliveries.map((d) => ({
      deliveryId: d.id,
      webhookId: d.webhookId,
      trackingId: d.trackingId,
      event: d.eventName,
      status: d.status,
      createdAt: d.createdAt.toISOString(),
      body: d.payload,
    })),
    landingClicks: clicks.map((c) => ({
      id: c.id,
      referralCode: c.referralCode,
      os: c.os,
      osVersion: c.osVersion,
      screenSize: c.screenSize,
      timezone: c.timezone,
      locale: c.locale,
      ipAddress: c.ipAddress,
      userAgent: c.userAgent,
      createdAt: c.createdAt.toISOString(),
      matchedAt: iso(c.matchedAt),
      matchMethod: c.matchMethod,
    })),
    sightings: sightings.map((s) => ({ kind: s.kind, value: s.value, firstSeenAt: s.firstSeenAt.toISOString(), lastSeenAt: s.lastSeenAt.toISOString() })),
    inboundEvents: inbound.map((e) => ({
      id: e.id,
      provider: e.provider,
      providerEventId: e.providerEventId,
      type: e.type,
      environment: e.environment,
      eventName: e.eventName,
      trackingId: e.trackingId,
      outcome: e.outcome,
      reason: e.reason,
      productId: e.productId,
      createdAt: e.createdAt.toISOString(),
    })),
    activity: activity.map((a) => ({ id: a.id, type: a.type, description: a.description, createdAt: a.createdAt.toISOString() })),
  };
}
