import { z } from "zod";
import { attributesSchema, clientProvidedIdSchema } from "./app-users";
import { installSignalFields } from "./attribution";
import { caseInsensitive, DEFAULT_PAGE_SIZE, idInput, jsonNumber, MAX_PAGE_SIZE } from "./common";
import { EXAMPLE } from "./examples";
import { BINDING_REFUSAL_CODES, eventNameSchema, referralCodeSchema, REWARD_ENVIRONMENTS } from "./referrals";
import { defaultReferrerExperience, newUserExperienceSchema, referrerExperienceSchema } from "./campaigns";

/*
 * The client-library (SDK) endpoints under /api/v1/sdk: request bodies, answers, header names and the
 * attribution vocabulary (coord/SDK-CONTRACT.md). Shared by the procedures, the OpenAPI document, the
 * web widget (type-only imports), the mobile client (types generated from the document), the docs and
 * the tests.
 */

/** The key header of init-app-user, track-referral and new-user-experience: a `pk_` or `sk_` key. */
export const PROJECT_KEY_HEADER = "X-Service-ProjectSecret";
/** The key header of track-reward-event, a backend call: the `sk_` secret only. */
export const PROJECT_SECRET_HEADER = "x-project-secret-key";

/** How init-app-user tied the user to a referral; the mobile methods come with the hosted landing page. */
export const ATTRIBUTION_METHODS = ["install_referrer", "clipboard", "link", "fingerprint", "cookie", "none"] as const;
export type AttributionMethod = (typeof ATTRIBUTION_METHODS)[number];

/** hex HMAC-SHA256: 32 bytes. */
export const userHashSchema = z.string().regex(/^[0-9a-fA-F]{64}$/, { error: "must be 64 hexadecimal characters (HMAC-SHA256)" });

export const initAppUserBody = z
  .object({
    userId: clientProvidedIdSchema.describe("Your own id of the signed-in user (the app user's clientProvidedId), 1 to 255 characters, matched exactly."),
    userHash: userHashSchema
      .optional()
      .describe(
        "hex HMAC-SHA256 of `userId` keyed with the `sk_` secret, computed by your backend. With the publishable key it lets the call change and bind an existing user; required when the project turns identity verification on. Checked whenever sent: a wrong one is a 401.",
      ),
    attributes: attributesSchema.optional().describe("Replaces the stored attributes when given, e.g. `{ \"name\": \"Ada\" }` (an existing user's only when the call speaks for them: the secret, or a valid `userHash`)."),
    referralTrackingId: idInput().optional().describe("The tracking id the web widget stored (`svc_tracked_referral`): binds this user as that item's referee."),
    referralCode: referralCodeSchema.optional().describe("Without a tracking id: the referral code the widget stored (`svc_ref_code`)."),
    ...installSignalFields,
  })
  .meta({
    title: "InitAppUserRequest",
    examples: [{ userId: EXAMPLE.referee.clientProvidedId, attributes: { name: "Grace" }, referralTrackingId: EXAMPLE.trackingId }],
  });

export const trackReferralSdkBody = z
  .object({
    referralCode: referralCodeSchema.describe("The link's `referralCode`."),
    rewardEventName: eventNameSchema.optional().describe("The link's `rewardEventName`, when it carried one."),
  })
  .meta({ title: "SdkTrackReferralRequest", examples: [{ referralCode: EXAMPLE.referrer.referralCode, rewardEventName: EXAMPLE.eventName }] });

export const newUserExperienceBody = z
  .object({
    referralCode: referralCodeSchema.optional().describe("The link's `referralCode`: the answer then names the referrer."),
  })
  .meta({ title: "NewUserExperienceRequest", examples: [{ referralCode: EXAMPLE.referrer.referralCode }] });

export const trackRewardEventBody = z
  .object({
    newUserId: clientProvidedIdSchema.describe("The referee's clientProvidedId (your id of the new user)."),
    referralTrackingId: idInput().describe("The tracking id: your backend reads it from the `svc_tracked_referral` cookie."),
    eventName: eventNameSchema.describe("The qualifying event that happened (exact, case-sensitive)."),
    environment: caseInsensitive(REWARD_ENVIRONMENTS).optional().describe("Routes webhooks: Sandbox or Production (any case). Omitted: every enabled webhook once."),
  })
  .meta({
    title: "TrackRewardEventRequest",
    examples: [{ newUserId: EXAMPLE.referee.clientProvidedId, referralTrackingId: EXAMPLE.trackingId, eventName: EXAMPLE.eventName, environment: "Production" }],
  });

/* The answers of the browser-safe endpoints, read by the web widget and the mobile client. */

export const attributionSchema = z
  .object({
    method: z.enum(ATTRIBUTION_METHODS).describe("`cookie` when the tracking id or code the call passed names a referral this user is the referee of; `none` otherwise."),
    confidence: z.number().min(0).max(1).describe("1 for a deterministic token, 0 for none."),
    reason: z.enum(BINDING_REFUSAL_CODES).optional().describe("Present when the call passed a token that bound nothing: why."),
  })
  .meta({ id: "SdkAttribution", examples: [{ method: "cookie", confidence: 1 }] });

export const initAppUserOutput = z
  .object({
    id: z.guid().describe("The app user's GUID (the same value as uniqueId)."),
    uniqueId: z.guid(),
    clientProvidedId: z.string().describe("The `userId` sent."),
    referralCode: z.string().describe("6 alphanumeric characters."),
    referralLink: z.url().nullable().describe("`<referral redirect link>?referralCode=CODE`; null while the project has no redirect link."),
    referrerExperience: referrerExperienceSchema,
    referralTrackingId: z.guid().nullable().describe("The referral this user is the referee of: the one the call's token names, else the latest; null when none."),
    attribution: attributionSchema,
  })
  .meta({
    id: "SdkAppUser",
    examples: [
      {
        id: EXAMPLE.referee.uniqueId,
        uniqueId: EXAMPLE.referee.uniqueId,
        clientProvidedId: EXAMPLE.referee.clientProvidedId,
        referralCode: EXAMPLE.referee.referralCode,
        referralLink: `${EXAMPLE.redirectLink}?referralCode=${EXAMPLE.referee.referralCode}`,
        referrerExperience: defaultReferrerExperience,
        referralTrackingId: EXAMPLE.trackingId,
        attribution: { method: "cookie", confidence: 1 },
      },
    ],
  });

export const trackReferralOutput = z
  .object({
    referralTrackingId: z.guid().describe("The tracking id (UUID): the widget keeps it in the `svc_tracked_referral` cookie."),
    promotionalText: z.string().describe("The campaign's new-user promo text; empty when none."),
  })
  .meta({
    id: "SdkTrackReferralResponse",
    examples: [{ referralTrackingId: EXAMPLE.trackingId, promotionalText: "Your friend gave you 10 € off your first order." }],
  });

export const newUserExperienceOutput = z
  .object({
    newUserExperience: newUserExperienceSchema.pick({ promoText: true, promoPosition: true }),
    referrerName: z.string().nullable().describe("The referrer's display name from their attributes (the campaign's `referrerNameAttribute`, default `name`); null when unknown or no code was sent."),
  })
  .meta({
    id: "SdkNewUserExperience",
    examples: [{ newUserExperience: { promoText: "Grace gave you 10 € off your first order.", promoPosition: "top-center" }, referrerName: "Grace" }],
  });

/** The referrer's own summary (referral-summary): who asks, and which page of their friends. */
export const referralSummaryBody = z
  .object({
    userId: clientProvidedIdSchema.describe("Your own id of the signed-in user."),
    userHash: userHashSchema
      .optional()
      .describe("hex HMAC-SHA256 of `userId` keyed with the `sk_` secret: required with the publishable key (an unverified call gets nothing), not needed with the secret."),
    page: jsonNumber(z.number().int().min(1)).default(1).describe("Page of the friends list, from 1."),
    pageSize: jsonNumber(z.number().int().min(1).max(MAX_PAGE_SIZE)).default(DEFAULT_PAGE_SIZE).describe(`Friends per page, 1 to ${MAX_PAGE_SIZE}.`),
  })
  .meta({ title: "ReferralSummaryRequest", examples: [{ userId: EXAMPLE.referrer.clientProvidedId, page: 1, pageSize: 20 }] });

