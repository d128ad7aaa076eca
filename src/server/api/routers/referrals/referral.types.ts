import { z } from "zod";
import { cappedPageOf, LIST_COUNT_MAX, pageOf, projectIdInput, withPath } from "@/lib/schemas/common";
import { EXAMPLE } from "@/lib/schemas/examples";
import { appUserPathInput, referralCodeOutput } from "@/server/api/routers/app-users/app-user.types";
import {
  appUserReferralsQuery,
  linkBody,
  referralSearchQuery,
  REWARD_ENVIRONMENTS,
  REWARD_EVENT_OUTCOMES,
  REWARD_REASON_CODES,
  rewardBody,
  rewardEventListQuery,
  REVOKE_RESULT_CODES,
  REVOKE_RESULTS,
  REVOKE_SOURCES,
  revokeBody,
  TRACKING_STATUSES,
  trackBody,
} from "@/lib/schemas/referrals";
import { idInput } from "@/lib/schemas/common";
import { deliveryDtoSchema, deliveryExample } from "@/server/api/routers/deliveries/delivery.types";

const trackingStatus = z.enum(TRACKING_STATUSES);

const referralExample = {
  referralTrackingId: EXAMPLE.trackingId,
  referrerId: EXAMPLE.referrer.clientProvidedId,
  refereeId: EXAMPLE.referee.clientProvidedId,
  referrerUniqueId: EXAMPLE.referrer.uniqueId,
  refereeUniqueId: EXAMPLE.referee.uniqueId,
  referrerErased: false,
  refereeErased: false,
  referralCode: EXAMPLE.referrer.referralCode,
  rewardEventName: EXAMPLE.eventName,
  status: "Pending",
  failureReason: null,
  rewardClaimed: false,
  createdAt: EXAMPLE.at,
  rewardClaimedAt: null,
} as const;

export const referralDtoSchema = z
  .object({
    referralTrackingId: z.guid().describe("The tracking id (UUID): store it for the reward call."),
    referrerId: z.string().nullable().describe("The referrer's clientProvidedId; null once the referrer was erased (`referrerErased`)."),
    refereeId: z
      .string()
      .nullable()
      .describe("The referee's clientProvidedId; null until the referee is known (an arrival the client library tracked anonymously), or once erased (`refereeErased`)."),
    referrerUniqueId: z.guid().nullable().describe("The referrer's uniqueId; null once erased."),
    refereeUniqueId: z.guid().nullable().describe("The referee's uniqueId; null until the referee is known, or once erased."),
    referrerErased: z.boolean().describe("The referrer was erased (DELETE of the app user): the item keeps its status, nothing names them."),
    refereeErased: z.boolean().describe("The referee was erased."),
    referralCode: z.string().describe("The referrer's code the item was tracked with; `[erased]` once the referrer was erased."),
    rewardEventName: z.string().nullable().describe("The pre-assigned qualifying event, if any."),
    status: trackingStatus,
    failureReason: z.string().nullable().describe(`Why the item Failed: one of ${REWARD_REASON_CODES.join(", ")}.`),
    rewardClaimed: z.boolean(),
    createdAt: z.iso.datetime(),
    rewardClaimedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "ReferralDto", examples: [referralExample] });

/** The list envelope with the count capped (LIST_COUNT_MAX): the referrals of a large project stay fast to list. */
export const referralPageSchema = cappedPageOf(referralDtoSchema, { id: "ReferralPage", max: LIST_COUNT_MAX, things: "referrals", narrow: "narrow the filter for an exact count" });

export const referralListInput = referralSearchQuery.safeExtend(projectIdInput);
export const appUserReferralsInput = appUserReferralsQuery.extend(appUserPathInput);
export const linkInput = withPath(linkBody, projectIdInput);

export const linkOutput = z
  .object({
    referralLink: z
      .url()
      .describe(
        "Web projects: `<redirect link>?referralCode=CODE[&rewardEventName=E]`. Mobile projects: the hosted landing page `{origin}/r/{projectId}/CODE[?rewardEventName=E]`. Values URL-encoded.",
      ),
    referralCode: referralCodeOutput,
    referrerId: z.string(),
    rewardEventName: z.string().nullable(),
  })
  .meta({
    id: "ReferralLinkDto",
    examples: [
      {
        referralLink: `${EXAMPLE.redirectLink}?referralCode=${EXAMPLE.referrer.referralCode}&rewardEventName=${EXAMPLE.eventName}`,
        referralCode: EXAMPLE.referrer.referralCode,
        referrerId: EXAMPLE.referrer.clientProvidedId,
        rewardEventName: EXAMPLE.eventName,
      },
    ],
  });

export const trackInput = withPath(trackBody, projectIdInput);

export const trackOutput = referralDtoSchema
  .extend({ promotionalText: z.string().describe("The campaign's new-user promo text; empty when none.") })
  .meta({ id: "TrackReferralResponse", examples: [{ ...referralExample, promotionalText: "Your friend gave you 10 € off your first order." }] });

export const rewardInput = withPath(rewardBody, projectIdInput);

export const rewardOutput = z
  .object({
    rewardClaimed: z.boolean().describe("True only for the call that claimed the reward."),
    status: trackingStatus.describe("The item's status after this call."),
    reason: z.enum(REWARD_REASON_CODES).optional().describe("Why the reward was not claimed; present only when rewardClaimed is false."),
    referralTrackingId: z.guid(),
    rewardClaimedAt: z.iso.datetime().optional(),
  })
  .meta({
    id: "RewardResponse",
    examples: [
      { rewardClaimed: true, status: "Completed", referralTrackingId: EXAMPLE.trackingId, rewardClaimedAt: EXAMPLE.later },
      { rewardClaimed: false, status: "Failed", reason: "not_first_arrival", referralTrackingId: EXAMPLE.trackingId },
    ],
  });

export const referralPathInput = z.object({
  ...projectIdInput,
  trackingId: idInput().describe("The tracking id (`referralTrackingId`).").meta({ examples: [EXAMPLE.trackingId] }),
});

export const revokeInput = withPath(revokeBody, referralPathInput.shape);

export const revokeOutput = z
  .object({
    referralTrackingId: z.guid(),
    status: z.literal("Revoked").describe("The item's status after the call: always Revoked."),
    revoked: z.enum(REVOKE_RESULT_CODES).describe(`What the call did: ${REVOKE_RESULT_CODES.map((c) => `\`${c}\` (${REVOKE_RESULTS[c]})`).join("; ")}.`),
    revokedAt: z.iso.datetime().describe("When the referral was revoked (the first revocation's time)."),
    reason: z.string().describe("Why (the first revocation's reason)."),
    revokedBy: z.enum(REVOKE_SOURCES).describe("What revoked it: `api` (a key), `dashboard` (a person), `stripe` or `revenuecat` (a provider's event)."),
  })
  .meta({
    id: "RevokeResponse",
    examples: [
      { referralTrackingId: EXAMPLE.trackingId, status: "Revoked", revoked: "granted", revokedAt: EXAMPLE.later, reason: "Order refunded in full", revokedBy: "api" },
      { referralTrackingId: EXAMPLE.trackingId, status: "Revoked", revoked: "already_revoked", revokedAt: EXAMPLE.later, reason: "Order refunded in full", revokedBy: "stripe" },
    ],
  });

const rewardEventExample = { id: EXAMPLE.logId, eventName: EXAMPLE.eventName, environment: "Production" as const, outcome: "Claimed" as const, reason: null, at: EXAMPLE.later };

export const rewardEventSchema = z
  .object({
    id: z.guid(),
    eventName: z.string().nullable(),
    environment: z.enum(REWARD_ENVIRONMENTS).nullable(),
    outcome: z
      .enum(REWARD_EVENT_OUTCOMES)
      .describe("Claimed: this report granted the reward; Rejected: it was refused (see `reason`); Recorded: kept as an independent event while the item waits (for its pre-assigned event, or for its referee to be identified)."),
    reason: z.string().nullable().describe(`Why it was not Claimed: one of ${REWARD_REASON_CODES.join(", ")} (a later version may add codes).`),
    at: z.iso.datetime(),
  })
  .meta({ id: "RewardEventDto", examples: [rewardEventExample] });

export const referralDetailSchema = z
  .object({
    referral: referralDtoSchema,
    rewardEvents: z.array(rewardEventSchema).describe("Every reward event reported for the item, oldest first."),
    deliveries: z.array(deliveryDtoSchema).describe("The webhook deliveries of the referral (its reward's, and any other event's), oldest first."),
    revocation: z
      .object({
        revokedAt: z.iso.datetime(),
        reason: z.string(),
        revokedBy: z.enum(REVOKE_SOURCES),
      })
      .nullable()
      .optional()
      .describe("When, why and by what the referral was revoked (status Revoked); null otherwise."),
  })
  .meta({ id: "ReferralDetailDto", examples: [{ referral: referralExample, rewardEvents: [rewardEventExample], deliveries: [deliveryExample], revocation: null }] });

export const rewardEventListInput = rewardEventListQuery.safeExtend(projectIdInput);

const rewardEventItemExample = {
  ...rewardEventExample,
  trackingId: EXAMPLE.trackingId,
  referrerId: EXAMPLE.referrer.clientProvidedId,
  refereeId: EXAMPLE.referee.clientProvidedId,
  referrerUniqueId: EXAMPLE.referrer.uniqueId,
  refereeUniqueId: EXAMPLE.referee.uniqueId,
};

export const rewardEventItemSchema = rewardEventSchema
  .extend({
    trackingId: z.guid().nullable().describe("The tracking item the event was reported for; null when it named none."),
    referrerId: z.string().nullable().describe("The item's referrer by clientProvidedId; null once erased, or without an item."),
    refereeId: z.string().nullable().describe("The item's referee by clientProvidedId; null until known, once erased, or without an item."),
    referrerUniqueId: z.guid().nullable(),
    refereeUniqueId: z.guid().nullable(),
  })
  .meta({ id: "RewardEventItemDto", examples: [rewardEventItemExample] });

export const rewardEventPageSchema = pageOf(rewardEventItemSchema).meta({ id: "RewardEventPage" });
