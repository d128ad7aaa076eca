import { randomUUID } from "node:crypto";
import { Prisma } from "@/generated/prisma/client";
import { activityInsert } from "@/server/domain/activity/record-activity";
import { eventDeliveriesInsert } from "@/server/domain/deliveries/insert-event-deliveries";
import { REFERRAL_CODE_LENGTH } from "@/server/domain/app-users/insert-app-user";
import { ensureCampaign } from "@/server/domain/campaigns/ensure-campaign";
import { isUniqueViolation } from "@/server/domain/db-errors";
import { DomainError } from "@/server/domain/errors";
import { randomAlphanumeric } from "@/server/domain/tokens";
import type { ReferralDto } from "./to-referral-dto";
import { prepared } from "@/server/db/prepared-statements";

export type NewTracking = {
  projectId: string;
  /** When given, the project must belong to it (else "project" is refused, like an absent one). */
  organizationId?: string;
  referralCode: string;
  /** The referee's clientProvidedId, created if new; null for an anonymous arrival, bound later (bindReferee). */
  refereeId: string | null;
  rewardEventName: string | null;
};

export type TrackingInsert =
  | { inserted: ReferralDto; newUserExperience: Prisma.JsonValue }
  | { refused: "project" | "referral_code" | "self_referral" };

type Row = {
  projectFound: boolean;
  referrerId: string | null;
  referrerClientId: string | null;
  id: string | null;
  refereeId: string | null;
  newUserExperience: Prisma.JsonValue;
};

/** A new referee's code clashing with another user's is redrawn; more than this in a row is a shortage. */
const MAX_CODE_ATTEMPTS = 8;

/**
 * The one insert of a Pending tracking item, as one statement (the tracking path is the busiest write:
 * every arrival), with what goes with it: the referee found or created by their client id and marked
 * seen, the referrer's totalReferralsGiven (an arrival through their link), the referee's
 * totalReferralsReceived (else it moves when one is bound), and the activity entries. A user is never
 * tracked as arriving through their own code.
 */
export async function insertTracking(db: Prisma.TransactionClient, tracking: NewTracking, attempt = 1): Promise<TrackingInsert> {
  const { projectId, organizationId, referralCode, refereeId, rewardEventName } = tracking;
  const now = new Date();
  const newUserId = randomUUID();
  const trackingId = randomUUID();
  const onlyIfCreated = Prisma.sql`EXISTS (SELECT FROM referee WHERE "created")`;
  const onlyIfInserted = Prisma.sql`EXISTS (SELECT FROM item)`;
  const referrerClientId = Prisma.sql`(SELECT "clientProvidedId" FROM referrer)`;
  let row: Row | undefined;
  try {
    [row] = await prepared<Row>(db)`
      WITH project AS (
        SELECT p."id", c."id" AS "campaignId", c."newUserExperience"
        FROM "Project" p LEFT JOIN "Campaign" c ON c."projectId" = p."id"
        WHERE p."id" = ${projectId} AND (${organizationId ?? null}::text IS NULL OR p."organizationId" = ${organizationId ?? null})
      ), referrer AS (
        SELECT u."id", u."clientProvidedId" FROM "AppUser" u, project
        WHERE u."projectId" = project."id" AND u."referralCode" = ${referralCode} AND project."campaignId" IS NOT NULL
      ), referee AS (
        INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "firstSeenAt", "lastSeenAt",
          "totalReferralsReceived", "createdAt", "updatedAt")
        SELECT ${newUserId}, project."id", ${refereeId}, ${randomAlphanumeric(REFERRAL_CODE_LENGTH)}, ${now}, ${now}, 1, ${now}, ${now}
        FROM project, referrer
        WHERE ${refereeId}::text IS NOT NULL AND referrer."clientProvidedId" <> ${refereeId}
        ON CONFLICT ("projectId", "clientProvidedId") DO UPDATE SET "lastSeenAt" = EXCLUDED."lastSeenAt",
          "totalReferralsReceived" = "AppUser"."totalReferralsReceived" + 1, "updatedAt" = EXCLUDED."updatedAt"
        RETURNING "id", (xmax = 0) AS "created"
      ), item AS (
        INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "refereeId", "referralCode",
          "rewardEventName", "createdAt", "updatedAt")
        SELECT ${trackingId}, project."id", project."campaignId", referrer."id", (SELECT "id" FROM referee), ${referralCode},
          ${rewardEventName}, ${now}, ${now}
        FROM project, referrer
        WHERE ${refereeId}::text IS NULL OR EXISTS (SELECT FROM referee)
        RETURNING "id", "refereeId"
      ), given AS (
        UPDATE "AppUserCounters" SET "totalReferralsGiven" = "totalReferralsGiven" + 1
        WHERE "appUserId" = (SELECT "id" FROM referrer) AND ${onlyIfInserted}
      ), created AS (
        ${activityInsert(
          { projectId, appUserId: newUserId, type: "user_created", description: `App user ${refereeId} was created on first sight.` },
          { at: now, onlyIf: onlyIfCreated },
        )}
      ), tracked AS (
        ${activityInsert(
          {
            projectId,
            appUserId: Prisma.sql`(SELECT "id" FROM referrer)`,
            trackingId,
            type: "referral_tracked",
            description: Prisma.sql`${refereeId ?? "A visitor not known yet"} || ' arrived through ' || ${referrerClientId} || '''s referral link'
              || ${rewardEventName === null ? "." : ` (qualifying event: ${rewardEventName}).`}`,
          },
          // A millisecond after the referee's creation, so the feed (newest first) shows them in order.
          { at: new Date(now.getTime() + 1), onlyIf: onlyIfInserted },
        )}
      ), deliveries AS (
        -- referral.tracked, to the webhooks that subscribe to it (none: no row, and no other cost).
        ${eventDeliveriesInsert(
          {
            type: "referral.tracked",
            projectId,
            trackingId,
            parties: { referrerId: Prisma.sql`(SELECT "id" FROM referrer)`, refereeId: Prisma.sql`(SELECT "refereeId" FROM item)` },
            environment: null,
            payload: { trackingId, refereeId, referralCode, rewardEventName, trackedAt: now.toISOString(), projectId },
            payloadSql: Prisma.sql`jsonb_build_object('referrerId', ${referrerClientId}, 'campaignId', (SELECT "campaignId" FROM project))`,
          },
          { at: now, onlyIf: onlyIfInserted },
        )}
      )
      SELECT EXISTS (SELECT FROM project) AS "projectFound", (SELECT "id" FROM referrer) AS "referrerId",
        ${referrerClientId} AS "referrerClientId", item."id", item."refereeId", (SELECT "newUserExperience" FROM project)
      FROM (SELECT 1) one LEFT JOIN item ON true`;
  } catch (error) {
    // Only a new referee's drawn code can clash (the client id's clash is the upsert): draw again.
    if (!isUniqueViolation(error)) throw error;
    if (attempt >= MAX_CODE_ATTEMPTS) throw new DomainError("unavailable", `No free referral code after ${MAX_CODE_ATTEMPTS} attempts; retry the request.`);
    return insertTracking(db, tracking, attempt + 1);
  }
  if (!row?.projectFound) return { refused: "project" };
  if (!row.referrerId) {
    // A project made before projects always had a campaign: make it, then track.
    if ((await db.campaign.count({ where: { projectId } })) === 0) return (await ensureCampaign(db, projectId), insertTracking(db, tracking, attempt));
    return { refused: "referral_code" };
  }
  if (!row.id) return { refused: "self_referral" };
  return {
    inserted: {
      referralTrackingId: row.id,
      referrerId: row.referrerClientId!,
      refereeId,
      referrerUniqueId: row.referrerId,
      refereeUniqueId: row.refereeId,
      referrerErased: false,
      refereeErased: false,
      referralCode,
      rewardEventName,
      status: "Pending",
      failureReason: null,
      rewardClaimed: false,
      createdAt: now.toISOString(),
      rewardClaimedAt: null,
    },
    newUserExperience: row.newUserExperience,
  };
}
