import { z } from "zod";
import { newUserExperienceSchema, referrerExperienceSchema } from "@/lib/schemas/campaigns";
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
  .meta({ id: "SdkAttribution" });

export const initAppUserOutput = z
  .object({
    id: z.string().describe("The app user's GUID (the same value as uniqueId)."),
    uniqueId: z.string(),
    clientProvidedId: z.string().describe("The `userId` sent."),
    referralCode: z.string().describe("6 alphanumeric characters."),
    referralLink: z.string().nullable().describe("`<referral redirect link>?referralCode=CODE`; null while the project has no redirect link."),
    referrerExperience: referrerExperienceSchema,
    referralTrackingId: z.string().nullable().describe("The referral this user is the referee of: the one the call's token names, else the latest; null when none."),
    attribution: attributionSchema,
  })
  .meta({ id: "SdkAppUser" });

export const trackReferralOutput = z
  .object({
    referralTrackingId: z.string().describe("The tracking id (UUID): the widget keeps it in the `svc_tracked_referral` cookie."),
    promotionalText: z.string().describe("The campaign's new-user promo text; empty when none."),
  })
  .meta({ id: "SdkTrackReferralResponse" });

export const newUserExperienceOutput = z
  .object({
    newUserExperience: newUserExperienceSchema.pick({ promoText: true, promoPosition: true }),
    referrerName: z.string().nullable().describe("The referrer's display name from their attributes (the campaign's `referrerNameAttribute`, default `name`); null when unknown or no code was sent."),
  })
  .meta({ id: "SdkNewUserExperience" });

export const trackRewardEventOutput = rewardOutput;
