import { z } from "zod";
import { EXAMPLE } from "@/lib/schemas/examples";
import { referralDtoSchema } from "@/server/api/routers/referrals/referral.types";
import { APP_USER_EXPORT_LISTS, APP_USER_EXPORT_MAX_ENTRIES } from "@/server/domain/app-users/export-app-user";
import { appUserDtoSchema, appUserEventSchema } from "./app-user.types";

const at = z.iso.datetime();

export const appUserExportSchema = z
  .object({
    exportedAt: at,
    projectId: z.guid(),
    user: appUserDtoSchema,
    referralsGiven: z.array(referralDtoSchema).describe("Tracking items with this user as referrer, oldest first."),
    referralsReceived: z.array(referralDtoSchema).describe("Tracking items with this user as referee, oldest first."),
    rewards: z
      .array(
        z.object({
          trackingId: z.guid(),
          role: z.enum(["referrer", "referee"]),
          eventName: z.string().nullable(),
          environment: z.string().nullable(),
          claimedAt: at,
        }),
      )
      .describe("Reward history entries naming the user."),
    rewardEvents: z
      .array(
        z.object({
          id: z.guid(),
          trackingId: z.guid().nullable(),
          eventName: z.string().nullable(),
          environment: z.string().nullable(),
          outcome: z.string(),
          reason: z.string().nullable(),
          createdAt: at,
        }),
      )
      .describe("Every reward event reported for their referrals."),
    deliveries: z
      .array(
        z.object({
          deliveryId: z.guid(),
          webhookId: z.guid(),
          trackingId: z.guid().nullable(),
          event: z.string(),
          status: z.string(),
          createdAt: at,
          body: z.unknown().describe("The stored body (null once the retention purge removed it)."),
        }),
      )
      .describe("Webhook deliveries whose stored body names the user."),
    landingClicks: z
      .array(
        z.object({
          id: z.guid(),
          referralCode: z.string(),
          os: z.string().nullable(),
          osVersion: z.string().nullable(),
          screenSize: z.string().nullable(),
          timezone: z.string().nullable(),
          locale: z.string().nullable(),
          ipAddress: z.string().nullable(),
          userAgent: z.string().nullable(),
          createdAt: at,
          matchedAt: at.nullable(),
          matchMethod: z.string().nullable(),
        }),
      )
      .describe("Landing-page clicks attributed to the user."),
    sightings: z
      .array(z.object({ kind: z.string(), value: z.string(), firstSeenAt: at, lastSeenAt: at }))
      .describe("Addresses and device fingerprints their client was seen from (same-device rule)."),
    inboundEvents: z
      .array(
        z.object({
          id: z.guid(),
          provider: z.string(),
          providerEventId: z.string(),
          type: z.string(),
          environment: z.string(),
          eventName: z.string().nullable(),
          trackingId: z.guid().nullable(),
          outcome: z.string().nullable(),
          reason: z.string().nullable(),
          productId: z.string().nullable(),
          createdAt: at,
        }),
      )
      .describe("Inbound provider events (Stripe, RevenueCat) that named the user as the referee."),
    activity: z.array(appUserEventSchema).describe("Their timeline, oldest first."),
    truncated: z
      .array(z.enum(APP_USER_EXPORT_LISTS))
      .describe(
        `The lists cut at ${APP_USER_EXPORT_MAX_ENTRIES.toLocaleString("en-GB")} entries (their oldest are given; empty when the document is complete): read the rest with the paged lists (the user's referrals, deliveries, activity).`,
      ),
  })
  .meta({
    id: "AppUserExport",
    examples: [
      {
        exportedAt: EXAMPLE.later,
        projectId: EXAMPLE.projectId,
        user: appUserDtoSchema.meta()?.examples?.[0],
        referralsGiven: [],
        referralsReceived: [],
        rewards: [{ trackingId: EXAMPLE.trackingId, role: "referrer", eventName: EXAMPLE.eventName, environment: "Production", claimedAt: EXAMPLE.later }],
        rewardEvents: [
          { id: EXAMPLE.eventId, trackingId: EXAMPLE.trackingId, eventName: EXAMPLE.eventName, environment: "Production", outcome: "Claimed", reason: null, createdAt: EXAMPLE.later },
        ],
        deliveries: [],
        landingClicks: [],
        sightings: [],
        inboundEvents: [],
        activity: [],
        truncated: [],
      },
    ],
  });
