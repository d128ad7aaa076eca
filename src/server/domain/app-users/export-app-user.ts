import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { toReferralDto, withParties, type ReferralDto } from "@/server/domain/referrals/to-referral-dto";
import { selectAppUser, toAppUserDto, type AppUserDto } from "./to-app-user-dto";

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * Entries per list of one user's export, at most: the document is built whole in memory (one JSON
 * answer), so a referrer with a million referrals must not make it a million. A list cut there is
 * named in `truncated`; the paged endpoints (the user's referrals, deliveries, activity) read the rest.
 */
export const APP_USER_EXPORT_MAX_ENTRIES = 1_000;

export const APP_USER_EXPORT_LISTS = [
  "referralsGiven",
  "referralsReceived",
  "rewards",
  "rewardEvents",
  "deliveries",
  "landingClicks",
  "sightings",
  "inboundEvents",
  "activity",
] as const;
export type AppUserExportList = (typeof APP_USER_EXPORT_LISTS)[number];

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
  /** The lists that hold APP_USER_EXPORT_MAX_ENTRIES entries and had more (their oldest are given). */
  truncated: AppUserExportList[];
};

export async function exportAppUser(db: Db, organizationId: string, projectId: string, uniqueId: string, now = new Date()): Promise<AppUserExport> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const user = await selectAppUser(db, Prisma.sql`u."id" = ${uniqueId} AND u."projectId" = ${project.id}`);
  if (!user) throw notFound("App user");
  const order = [{ createdAt: "asc" as const }, { id: "asc" as const }];
  // One more than the bound, to know whether a list had more.
  const take = APP_USER_EXPORT_MAX_ENTRIES + 1;
  const [given, received, rewards, clicks, sightings, activity, inbound] = await Promise.all([
    db.referralTracking.findMany({ where: { referrerId: user.id }, include: withParties, orderBy: order, take }),
    db.referralTracking.findMany({ where: { refereeId: user.id }, include: withParties, orderBy: order, take }),
    db.rewardHistory.findMany({ where: { OR: [{ referrerId: user.id }, { refereeId: user.id }] }, orderBy: [{ claimedAt: "asc" }, { id: "asc" }], take }),
    db.linkClick.findMany({ where: { projectId: project.id, matchedAppUserId: user.id }, orderBy: order, take }),
    db.appUserSighting.findMany({ where: { appUserId: user.id }, orderBy: [{ firstSeenAt: "asc" }, { id: "asc" }], take }),
    db.activity.findMany({ where: { appUserId: user.id }, orderBy: order, take }),
    db.inboundEvent.findMany({ where: { projectId: project.id, refereeId: user.clientProvidedId }, orderBy: order, take }),
  ]);
  const truncated: AppUserExportList[] = [];
  const bounded = <T>(list: AppUserExportList, rows: T[]): T[] => {
    if (rows.length <= APP_USER_EXPORT_MAX_ENTRIES) return rows;
    truncated.push(list);
    return rows.slice(0, APP_USER_EXPORT_MAX_ENTRIES);
  };
  const [givenShown, receivedShown] = [bounded("referralsGiven", given), bounded("referralsReceived", received)];
  const trackingIds = [...givenShown, ...receivedShown].map((t) => t.id);
  const [events, deliveries] = await Promise.all([
    db.rewardEvent.findMany({ where: { trackingId: { in: trackingIds } }, orderBy: order, take }),
    db.$queryRaw<{ id: string; webhookId: string; trackingId: string | null; eventName: string; status: string; createdAt: Date; payload: unknown }[]>`
      SELECT d."id", d."webhookId", d."trackingId", d."eventName", d."status"::text AS "status", d."createdAt", d."payload"
      FROM "Delivery" d
      WHERE d."projectId" = ${project.id} AND d."trackingId" = ANY(${trackingIds}::text[])
        AND (d."payload"->>'referrerId' = ${user.clientProvidedId} OR d."payload"->>'refereeId' = ${user.clientProvidedId})
      ORDER BY d."createdAt", d."id"
      LIMIT ${take}`,
  ]);
  return {
    exportedAt: now.toISOString(),
    projectId: project.id,
    user: toAppUserDto(user),
    referralsGiven: givenShown.map(toReferralDto),
    referralsReceived: receivedShown.map(toReferralDto),
    rewards: bounded("rewards", rewards).map((r) => ({
      trackingId: r.trackingId,
      role: r.referrerId === user.id ? "referrer" : "referee",
      eventName: r.eventName,
      environment: r.environment,
      claimedAt: r.claimedAt.toISOString(),
    })),
    rewardEvents: bounded("rewardEvents", events).map((e) => ({
      id: e.id,
      trackingId: e.trackingId,
      eventName: e.eventName,
      environment: e.environment,
      outcome: e.outcome,
      reason: e.reason,
      createdAt: e.createdAt.toISOString(),
    })),
    deliveries: bounded("deliveries", deliveries).map((d) => ({
      deliveryId: d.id,
      webhookId: d.webhookId,
      trackingId: d.trackingId,
      event: d.eventName,
      status: d.status,
      createdAt: d.createdAt.toISOString(),
      body: d.payload,
    })),
    landingClicks: bounded("landingClicks", clicks).map((c) => ({
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
    sightings: bounded("sightings", sightings).map((s) => ({ kind: s.kind, value: s.value, firstSeenAt: s.firstSeenAt.toISOString(), lastSeenAt: s.lastSeenAt.toISOString() })),
    inboundEvents: bounded("inboundEvents", inbound).map((e) => ({
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
    activity: bounded("activity", activity).map((a) => ({ id: a.id, type: a.type, description: a.description, createdAt: a.createdAt.toISOString() })),
    truncated,
  };
}
