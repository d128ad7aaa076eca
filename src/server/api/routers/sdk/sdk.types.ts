import { z } from "zod";
import { defaultReferrerExperience, newUserExperienceSchema, referrerExperienceSchema } from "@/lib/schemas/campaigns";
import { EXAMPLE } from "@/lib/schemas/examples";
import { BINDING_REFUSAL_CODES } from "@/lib/schemas/referrals";
import { ATTRIBUTION_METHODS, initAppUserBody, newUserExperienceBody, trackReferralSdkBody, trackRewardEventBody } from "@/lib/schemas/sdk";
import { rewardOutput } from "@/server/api/routers/referrals/referral.types";

/*
 * The client-library endpoints take no path ids (the key names the project): the bodies are the
 * inputs as they are.
 */
export const initAppUserInput = initAppUserBody;
export const trackReferralInput = trackReferralSdkBody;
export const newUserExperienceInput = newUserExperienceBody;
export const trackRewardEventInput = trackRewardEventBody;

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

export const trackRewardEventOutput = rewardOutput;
