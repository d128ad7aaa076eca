import { z } from "zod";
import { caseInsensitive, exactText, pageOf, pagingInput, projectIdInput } from "@/server/api/schemas";
import { clientProvidedIdInput } from "@/server/api/routers/app-users/app-user.types";
import { REWARD_REASONS } from "@/server/domain/referrals/decide-reward";
import { EVENT_NAME_MAX_LENGTH, REWARD_ENVIRONMENTS } from "@/server/domain/referrals/parse-referral-input";
import { TRACKING_STATUSES } from "@/server/domain/referrals/query-referral-page";

/** Compared exactly and case-sensitively, so kept exactly as sent. */
export const eventNameInput = exactText(EVENT_NAME_MAX_LENGTH);
const trackingStatus = z.enum(TRACKING_STATUSES);

export const referralDtoSchema = z
  .object({
    referralTrackingId: z.string().describe("The tracking id (UUID): store it for the reward call."),
    referrerId: z.string().describe("The referrer's clientProvidedId."),
    refereeId: z.string().describe("The referee's clientProvidedId."),
    referrerUniqueId: z.string().describe("The referrer's uniqueId."),
    refereeUniqueId: z.string().describe("The referee's uniqueId."),
    referralCode: z.string(),
    rewardEventName: z.string().nullable().describe("The pre-assigned qualifying event, if any."),
    status: trackingStatus,
    failureReason: z.string().nullable().describe(`Why the item Failed: one of ${REWARD_REASONS.join(", ")}.`),
    rewardClaimed: z.boolean(),
    createdAt: z.string(),
    rewardClaimedAt: z.string().nullable(),
  })
  .meta({ id: "ReferralDto" });

export const referralPageSchema = pageOf(referralDtoSchema).meta({ id: "ReferralPage" });

export const referralFilterInput = {
  status: caseInsensitive(TRACKING_STATUSES)
    .optional()
    .describe("Pending, Completed or Failed (any case)."),
  ...pagingInput,
};

export const linkInput = z.object({
  ...projectIdInput,
  referrerId: clientProvidedIdInput.describe("The referrer's clientProvidedId."),
  rewardEventName: eventNameInput.optional().describe("Pre-assigns the qualifying event (exact, case-sensitive)."),
});

export const linkOutput = z
  .object({
    referralLink: z.string().describe("`<redirect link>?referralCode=CODE[&rewardEventName=E]`, values URL-encoded."),
    referralCode: z.string(),
    referrerId: z.string(),
    rewardEventName: z.string().nullable(),
  })
  .meta({ id: "ReferralLinkDto" });

export const trackInput = z.object({
  ...projectIdInput,
  referralCode: z.string().trim().min(1, { error: "is required" }).max(32).describe("The link's `referralCode`."),
  refereeId: clientProvidedIdInput.describe("The new user's clientProvidedId; the app user is created if missing."),
  rewardEventName: eventNameInput.optional().describe("The link's `rewardEventName`, when it carried one."),
});

export const trackOutput = referralDtoSchema
  .extend({ promotionalText: z.string().describe("The campaign's new-user promo text; empty when none.") })
  .meta({ id: "TrackReferralResponse" });

export const rewardInput = z.object({
  ...projectIdInput,
  referralTrackingId: z.string().trim().min(1, { error: "is required" }).max(100),
  eventName: eventNameInput.optional().describe("The qualifying event that happened. Default: the item's pre-assigned event."),
  environment: caseInsensitive(REWARD_ENVIRONMENTS).optional().describe("Routes webhooks: Sandbox or Production. Omitted: every enabled webhook once."),
});

export const rewardOutput = z
  .object({
    rewardClaimed: z.boolean().describe("True only for the call that claimed the reward."),
    status: trackingStatus.describe("The item's status after this call."),
    reason: z.enum(REWARD_REASONS).optional().describe("Why the reward was not claimed; present only when rewardClaimed is false."),
    referralTrackingId: z.string(),
    rewardClaimedAt: z.string().optional(),
  })
  .meta({ id: "RewardResponse" });
