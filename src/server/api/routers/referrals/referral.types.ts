import { z } from "zod";
import { pageOf, projectIdInput } from "@/lib/schemas/common";
import { appUserPathInput } from "@/server/api/routers/app-users/app-user.types";
import { appUserReferralsQuery, linkBody, referralListQuery, REWARD_REASON_CODES, rewardBody, TRACKING_STATUSES, trackBody } from "@/lib/schemas/referrals";

const trackingStatus = z.enum(TRACKING_STATUSES);

export const referralDtoSchema = z
  .object({
    referralTrackingId: z.string().describe("The tracking id (UUID): store it for the reward call."),
    referrerId: z.string().describe("The referrer's clientProvidedId."),
    refereeId: z.string().nullable().describe("The referee's clientProvidedId; null until the referee is known (an arrival the client library tracked anonymously)."),
    referrerUniqueId: z.string().describe("The referrer's uniqueId."),
    refereeUniqueId: z.string().nullable().describe("The referee's uniqueId; null until the referee is known."),
    referralCode: z.string(),
    rewardEventName: z.string().nullable().describe("The pre-assigned qualifying event, if any."),
    status: trackingStatus,
    failureReason: z.string().nullable().describe(`Why the item Failed: one of ${REWARD_REASON_CODES.join(", ")}.`),
    rewardClaimed: z.boolean(),
    createdAt: z.string(),
    rewardClaimedAt: z.string().nullable(),
  })
  .meta({ id: "ReferralDto" });

export const referralPageSchema = pageOf(referralDtoSchema).meta({ id: "ReferralPage" });

export const referralListInput = referralListQuery.extend(projectIdInput);
export const appUserReferralsInput = appUserReferralsQuery.extend(appUserPathInput);
export const linkInput = linkBody.extend(projectIdInput);

export const linkOutput = z
  .object({
    referralLink: z
      .string()
      .describe(
        "Web projects: `<redirect link>?referralCode=CODE[&rewardEventName=E]`. Mobile projects: the hosted landing page `{origin}/r/{projectId}/CODE[?rewardEventName=E]`. Values URL-encoded.",
      ),
    referralCode: z.string(),
    referrerId: z.string(),
    rewardEventName: z.string().nullable(),
  })
  .meta({ id: "ReferralLinkDto" });

export const trackInput = trackBody.extend(projectIdInput);

export const trackOutput = referralDtoSchema
  .extend({ promotionalText: z.string().describe("The campaign's new-user promo text; empty when none.") })
  .meta({ id: "TrackReferralResponse" });

export const rewardInput = rewardBody.extend(projectIdInput);

export const rewardOutput = z
  .object({
    rewardClaimed: z.boolean().describe("True only for the call that claimed the reward."),
    status: trackingStatus.describe("The item's status after this call."),
    reason: z.enum(REWARD_REASON_CODES).optional().describe("Why the reward was not claimed; present only when rewardClaimed is false."),
    referralTrackingId: z.string(),
    rewardClaimedAt: z.string().optional(),
  })
  .meta({ id: "RewardResponse" });
