import { z } from "zod";
import { attributesSchema, clientProvidedIdSchema } from "./app-users";
import { installSignalFields } from "./attribution";
import { caseInsensitive, idInput } from "./common";
import { EXAMPLE } from "./examples";
import { eventNameSchema, referralCodeSchema, REWARD_ENVIRONMENTS } from "./referrals";

/*
 * The client-library (SDK) endpoints under /api/v1/sdk: request bodies, header names and the
 * attribution vocabulary (coord/SDK-CONTRACT.md). Shared by the procedures, the OpenAPI document,
 * the docs and the tests.
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
