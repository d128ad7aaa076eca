import { z } from "zod";
import { RewardEnvironment, RewardEventOutcome, TrackingStatus } from "@/generated/prisma/enums";
import { caseInsensitive, exactText, idInput, pagingInput, requiredText } from "./common";
import { clientProvidedIdSchema } from "./app-users";
import { EXAMPLE } from "./examples";
import { createdRange, inOrder, NAMES_A_REFERRAL, searchTerm } from "./search";

/** Event names are free-form and compared exactly (case-sensitive). */
export const EVENT_NAME_MAX_LENGTH = 200;
/** Referral codes are 6 characters; a little slack lets a mistyped code be a 404 rather than a 400. */
export const REFERRAL_CODE_MAX_LENGTH = 32;

export const TRACKING_STATUSES = Object.values(TrackingStatus) as [TrackingStatus, ...TrackingStatus[]];
export const REWARD_ENVIRONMENTS = Object.values(RewardEnvironment) as [RewardEnvironment, ...RewardEnvironment[]];
export const REWARD_EVENT_OUTCOMES = Object.values(RewardEventOutcome) as [RewardEventOutcome, ...RewardEventOutcome[]];

/** An app user's referrals: given (the user is the referrer) or received (the referee). */
export const REFERRAL_DIRECTIONS = ["given", "received"] as const;
export type ReferralDirection = (typeof REFERRAL_DIRECTIONS)[number];

/**
 * Why a reward event did not claim the reward: the machine reason (the API's `reason` and the item's
 * `failureReason`), its words for people (activity feed, dashboard), and what it does to the item.
 */
export const REWARD_REASONS = {
  already_completed: {
    text: "Already completed: the reward was claimed before",
    effect: "the item is already final and is not changed (the reward is never claimed twice)",
  },
  already_failed: {
    text: "Already failed: the referral was closed before",
    effect: "the item is already final and is not changed",
  },
  already_revoked: {
    text: "Already revoked: the referral's reward was taken back",
    effect: "the item was revoked (status `Revoked`: a refund, a dispute, a revoke call) and is final; a revoked referral never grants",
  },
  event_mismatch: {
    text: "Different event: it was reserved for another reward event",
    effect: "the item was pre-assigned another event (names match exactly, case-sensitive); the event is recorded on its own and the item **stays Pending**",
  },
  self_referral: {
    text: "Self-referral: the referee is the referrer",
    effect: "referrer and referee are the same user; the item becomes Failed",
  },
  expired: {
    text: "Expired: older than the campaign's attribution window",
    effect: "the item is older than the campaign's attribution window; the item becomes Failed",
  },
  referee_unknown: {
    text: "No referee yet: the arrival has not been bound to a user",
    effect: "the item has no referee yet (an anonymous arrival that no app user has been bound to); an item without a referee cannot complete, so the event is recorded on its own and the item **stays Pending**",
  },
  duplicate_referee: {
    text: "Duplicate referee: this user already completed a referral in this project",
    effect: "the referee already completed a referral in this project, through this referrer or another (a referee completes at most one); the item becomes Failed",
  },
  mutual_referral: {
    text: "Mutual referral: the referee already earned a reward for referring this referrer",
    effect: "the referee was already rewarded for referring this referrer (two users never both earn a reward from each other); the item becomes Failed",
  },
  not_first_arrival: {
    text: "Not the first arrival: an earlier arrival of this user holds the referral",
    effect: "the campaign attributes a referee to their first arrival (`attributionModel` `first`, the default) and the referee has an earlier item that is still Pending and within the attribution window: report the event for that item; this one becomes Failed",
  },
  not_last_arrival: {
    text: "Not the last arrival: a later arrival of this user holds the referral",
    effect: "the campaign attributes a referee to their last arrival (`attributionModel` `last`) and the referee has a later item that is still Pending: report the event for that item; this one becomes Failed",
  },
  referrer_cap_reached: {
    text: "Cap reached: the referrer earned as many rewards as the campaign allows",
    effect: "the campaign's `rewardRules.maxRewardsPerReferrer` (per UTC day, per UTC month or in all) is reached for this referrer; the item becomes Failed",
  },
  disposable_email: {
    text: "Disposable e-mail: the referee's address is at a disposable-mail domain",
    effect: "`rewardRules.disposableEmail` is `block` and the referee's `email` attribute is at a disposable-mail domain; the item becomes Failed",
  },
  same_device: {
    text: "Same device: the referee used the referrer's address or device",
    effect: "`rewardRules.sameDevice` is `block` and the referee's client was seen from an address or device fingerprint the referrer's used within 24 hours of it; the item becomes Failed",
  },
  held_for_review: {
    text: "Held for review: the reward waits in the review queue",
    effect: "a rule set to `review`, or the campaign's `holdDays`, holds the reward: the item **stays Pending** in the review queue and nothing is delivered until it is approved (or the hold ends); a later report of it answers the same",
  },
  denied_in_review: {
    text: "Denied in review: a person refused the held reward",
    effect: "the reward was denied in the review queue; the item became Failed",
  },
  user_erased: {
    text: "User erased: a party of the referral was erased",
    effect: "the referee (or the referrer) of the Pending item was erased at their request; the item became Failed",
  },
} as const satisfies Record<string, { text: string; effect: string }>;

export type RewardReason = keyof typeof REWARD_REASONS;
export const REWARD_REASON_CODES = Object.keys(REWARD_REASONS) as [RewardReason, ...RewardReason[]];

/** A stored reason in words; an unknown one (written by a later version) still reads as words. */
export function rewardReasonText(reason: string): string {
  return reason in REWARD_REASONS ? REWARD_REASONS[reason as RewardReason].text : reason.replace(/_/g, " ");
}

/**
 * Why an attribution token (a tracking id or referral code the caller passed) did not make the user
 * a referee. Not errors: init-app-user answers them in `attribution.reason` so a stale cookie never
 * breaks the client's page.
 */
export const BINDING_REFUSALS = {
  unknown_referral: "the tracking id or referral code names nothing in this project (a stale cookie, a mistyped code)",
  self_referral: "the user is the referrer of that referral: nobody is referred through their own link",
  bound_to_another_user: "the tracking item's referee is already another user (each item binds exactly one referee, the first to present it)",
  identity_not_verified:
    "the user existed before this call, which came with the publishable key and no valid `userHash`: such a call binds only a user it creates (send `userHash`, or let your backend bind the referee with `track-reward-event`)",
} as const satisfies Record<string, string>;

export type BindingRefusal = keyof typeof BINDING_REFUSALS;
export const BINDING_REFUSAL_CODES = Object.keys(BINDING_REFUSALS) as [BindingRefusal, ...BindingRefusal[]];

/** Compared exactly and case-sensitively, so kept exactly as sent. */
export const eventNameSchema = exactText(EVENT_NAME_MAX_LENGTH);
export const referralCodeSchema = z.string().trim().min(1, { error: "is required" }).max(REFERRAL_CODE_MAX_LENGTH);

/*
 * Request bodies and queries (without the path's ids): see app-users.ts.
 */
export const linkBody = z
  .object({
    referrerId: clientProvidedIdSchema.describe("The referrer's clientProvidedId."),
    rewardEventName: eventNameSchema.optional().describe("Pre-assigns the qualifying event (exact, case-sensitive)."),
  })
  .meta({ title: "CreateReferralLinkRequest", examples: [{ referrerId: EXAMPLE.referrer.clientProvidedId, rewardEventName: EXAMPLE.eventName }] });

export const trackBody = z
  .object({
    referralCode: referralCodeSchema.describe("The link's `referralCode`."),
    refereeId: clientProvidedIdSchema.describe("The new user's clientProvidedId; the app user is created if missing."),
    rewardEventName: eventNameSchema.optional().describe("The link's `rewardEventName`, when it carried one."),
  })
  .meta({
    title: "TrackReferralRequest",
    examples: [{ referralCode: EXAMPLE.referrer.referralCode, refereeId: EXAMPLE.referee.clientProvidedId, rewardEventName: EXAMPLE.eventName }],
  });

export const rewardBody = z
  .object({
    referralTrackingId: idInput().describe("The `referralTrackingId` that track returned."),
    refereeId: clientProvidedIdSchema
      .optional()
      .describe(
        "The referee's clientProvidedId. Binds an item that has no referee yet (tracked anonymously by the client library); for an item with a referee it must be that referee.",
      ),
    eventName: eventNameSchema.optional().describe("The qualifying event that happened. Default: the item's pre-assigned event."),
    environment: caseInsensitive(REWARD_ENVIRONMENTS).optional().describe("Routes webhooks: Sandbox or Production (any case). Omitted: every enabled webhook once."),
  })
  .meta({ title: "RewardRequest", examples: [{ referralTrackingId: EXAMPLE.trackingId, eventName: EXAMPLE.eventName, environment: "Production" }] });

const statusFilter = caseInsensitive(TRACKING_STATUSES).describe("Pending, Completed, Failed or Revoked (any case).").meta({ examples: ["Completed"] }).optional();

/** An app user's referrals: by status. */
export const referralListQuery = z.object({
  status: statusFilter,
  ...pagingInput,
});

/**
 * The project's referrals: the filter of its list and of its CSV export, every part optional and all
 * of them together (AND). `to` is exclusive.
 */
export const referralFilterSchema = z
  .object({
    search: searchTerm(`Matches one of: ${NAMES_A_REFERRAL}. Surrounding spaces are ignored.`),
    status: statusFilter,
    ...createdRange("Referrals"),
  })
  .refine(...inOrder);
export type ReferralSearch = z.output<typeof referralFilterSchema>;

export const referralSearchQuery = referralFilterSchema.safeExtend(pagingInput);

/** The project's reward events, as reported (Claimed, Rejected or Recorded): the filter of their list. `to` is exclusive. */
export const rewardEventFilterSchema = z
  .object({
    search: searchTerm(`Matches one of: ${NAMES_A_REFERRAL}. Surrounding spaces are ignored.`),
    event: eventNameSchema.describe("The reported event name, exactly (case-sensitive).").meta({ examples: [EXAMPLE.eventName] }).optional(),
    outcome: caseInsensitive(REWARD_EVENT_OUTCOMES).describe("Claimed, Rejected or Recorded (any case).").meta({ examples: ["Rejected"] }).optional(),
    ...createdRange("Reward events"),
  })
  .refine(...inOrder);
export type RewardEventSearch = z.output<typeof rewardEventFilterSchema>;

export const rewardEventListQuery = rewardEventFilterSchema.safeExtend(pagingInput);

export const appUserReferralsQuery = referralListQuery.extend({
  direction: caseInsensitive(REFERRAL_DIRECTIONS)
    .default("given")
    .describe("given: as referrer; received: as referee (any case). Default given.")
    .meta({ examples: ["received"] }),
});

/** A revocation's reason: free text for people (the activity feed, reward.revoked's `reason`). */
export const REVOKE_REASON_MAX_LENGTH = 500;

export const revokeBody = z
  .object({
    reason: requiredText(REVOKE_REASON_MAX_LENGTH).describe(`Why the reward is taken back, for people (1 to ${REVOKE_REASON_MAX_LENGTH} characters): sent as reward.revoked's \`reason\`.`),
  })
  .meta({ title: "RevokeReferralRequest", examples: [{ reason: "Order refunded in full on 2026-11-10" }] });

/** What a revocation did (RevokeOutcome), in words for the API reference and the dashboard. */
export const REVOKE_RESULTS = {
  granted: "the reward was granted: it is withdrawn (no longer counted in the referrer's rewards, caps, stats, leaderboard or exports) and `reward.revoked` goes to the subscribed webhooks",
  held: "the reward was held (a hold or a review): it is cancelled and never grants; no webhook is sent",
  already_revoked: "the referral was revoked before: nothing changed (`revokedAt`, `reason` and `revokedBy` are the first revocation's)",
} as const;
export const REVOKE_RESULT_CODES = Object.keys(REVOKE_RESULTS) as [keyof typeof REVOKE_RESULTS, ...(keyof typeof REVOKE_RESULTS)[]];
export const REVOKE_SOURCES = ["api", "dashboard", "stripe", "revenuecat"] as const;
