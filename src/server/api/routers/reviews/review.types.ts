import { z } from "zod";
import { idInput, pageOf, pagingInput, projectIdInput, withPath } from "@/lib/schemas/common";
import { EXAMPLE } from "@/lib/schemas/examples";
import { REWARD_ENVIRONMENTS } from "@/lib/schemas/referrals";
import { REVIEW_REASON_CODES } from "@/lib/schemas/reward-rules";
import { REWARD_REASON_CODES, TRACKING_STATUSES } from "@/lib/schemas/referrals";
import { DECISION_OUTCOME_CODES, DECISION_OUTCOMES, denyReviewBody, REVIEW_DECISIONS, reviewDecisionBody, reviewReasonFilter } from "@/lib/schemas/reviews";

export const reviewDtoSchema = z
  .object({
    trackingId: z.guid().describe("The held referral's tracking id."),
    referrerId: z.string().nullable().describe("The referrer's clientProvidedId."),
    referrerUniqueId: z.guid().nullable(),
    refereeId: z.string().nullable().describe("The referee's clientProvidedId."),
    refereeUniqueId: z.guid().nullable(),
    refereeEmail: z.string().nullable().describe("The referee's `email` attribute; null when they have none."),
    refereeSignals: z
      .array(
        z.object({
          kind: z.enum(["ip", "device"]).describe("`ip`: a client address; `device`: a complete device fingerprint (OS|version|screen|timezone|locale)."),
          value: z.string(),
          lastSeenAt: z.iso.datetime(),
          sharedWithReferrer: z.boolean().describe("The referrer's client was seen from it too."),
        }),
      )
      .describe("Where the referee's client was seen from, newest first, at most 5 (recorded only while the campaign's `sameDevice` rule is on)."),
    referrerHistory: z
      .object({
        referrals: z.number().int().min(0).describe("Referrals tracked through the referrer's link."),
        rewards: z.number().int().min(0).describe("Of those, completed (rewards claimed)."),
        denials: z.number().int().min(0).describe("Of those, denied in review before."),
      })
      .nullable()
      .describe("The referrer's record in the project; null once the referrer was erased."),
    event: z.string().describe("The reported event the reward completes with."),
    environment: z.enum(REWARD_ENVIRONMENTS).nullable().describe("The reported environment (webhook routing); null: every enabled webhook."),
    reasons: z
      .array(z.enum(REVIEW_REASON_CODES))
      .describe("Why it is held: `disposable_email` or `same_device` (a rule set to `review`; a person decides), `hold` (the campaign's `holdDays`)."),
    holdUntil: z.iso.datetime().nullable().describe("When the hold ends and the reward completes by itself; null when a person must decide."),
    heldAt: z.iso.datetime(),
  })
  .meta({
    id: "ReviewDto",
    examples: [
      {
        trackingId: EXAMPLE.trackingId,
        referrerId: EXAMPLE.referrer.clientProvidedId,
        referrerUniqueId: EXAMPLE.referrer.uniqueId,
        refereeId: EXAMPLE.referee.clientProvidedId,
        refereeUniqueId: EXAMPLE.referee.uniqueId,
        refereeEmail: "ada@example.com",
        refereeSignals: [{ kind: "ip", value: "203.0.113.20", lastSeenAt: EXAMPLE.at, sharedWithReferrer: false }],
        referrerHistory: { referrals: 12, rewards: 9, denials: 1 },
        event: EXAMPLE.eventName,
        environment: "Production",
        reasons: ["hold"],
        holdUntil: EXAMPLE.later,
        heldAt: EXAMPLE.at,
      },
    ],
  });

export const reviewPageSchema = pageOf(reviewDtoSchema).meta({ id: "ReviewPage" });
export const listReviewsInput = z.object({ ...projectIdInput, ...pagingInput, reason: reviewReasonFilter.optional() });
export const reviewPathInput = z.object({
  ...projectIdInput,
  trackingId: idInput().describe("The held referral's tracking id.").meta({ examples: [EXAMPLE.trackingId] }),
});
export const decideReviewsInput = withPath(reviewDecisionBody, projectIdInput);
export const denyReviewInput = withPath(denyReviewBody, reviewPathInput.shape);

export const decidedItemSchema = z
  .object({
    trackingId: z.guid(),
    outcome: z.enum(DECISION_OUTCOME_CODES).describe(
      Object.entries(DECISION_OUTCOMES)
        .map(([code, words]) => `\`${code}\`: ${words}`)
        .join("; ") + ".",
    ),
    status: z.enum(TRACKING_STATUSES).nullable().describe("The item's status after the decision; null when it was not decided."),
    reason: z.enum(REWARD_REASON_CODES).nullable().describe("Why the reward did not complete (as the reward call's `reason`); null when granted or not decided."),
  })
  .meta({ id: "DecidedReview" });

export const decidedReviewsSchema = z
  .object({ items: z.array(decidedItemSchema).describe("One per distinct tracking id, in the order sent.") })
  .meta({
    id: "DecidedReviews",
    examples: [
      {
        items: [
          { trackingId: EXAMPLE.trackingId, outcome: "granted", status: "Completed", reason: null },
          { trackingId: "0b4c3c1e-8d2a-4f53-9a41-6f2d8e1b7c90", outcome: "failed", status: "Failed", reason: "referrer_cap_reached" },
        ],
      },
    ],
  });

export const reviewDecisionDtoSchema = z
  .object({
    id: z.guid(),
    trackingId: z.guid().describe("The referral decided."),
    decision: z.enum(REVIEW_DECISIONS),
    note: z.string().nullable().describe("The reviewer's reason in words; null when none was given."),
    heldFor: z.array(z.enum(REVIEW_REASON_CODES)).describe("Why it had been held."),
    status: z.enum(TRACKING_STATUSES).describe("The item's status after the decision."),
    failureReason: z.enum(REWARD_REASON_CODES).nullable().describe("Why it failed, when it did."),
    decidedBy: z.string().nullable().describe("Who decided (the member's e-mail or the API key's name, as the audit log keeps it); null: the hold ended by itself."),
    decidedAt: z.iso.datetime(),
  })
  .meta({
    id: "ReviewDecision",
    examples: [
      {
        id: EXAMPLE.logId,
        trackingId: EXAMPLE.trackingId,
        decision: "deny",
        note: "Same household",
        heldFor: ["same_device"],
        status: "Failed",
        failureReason: "denied_in_review",
        decidedBy: "ada@example.com",
        decidedAt: EXAMPLE.later,
      },
    ],
  });
export const reviewDecisionPageSchema = pageOf(reviewDecisionDtoSchema).meta({ id: "ReviewDecisionPage" });
export const listReviewDecisionsInput = z.object({
  ...projectIdInput,
  ...pagingInput,
  trackingId: z.guid().optional().describe("Only this referral's decisions."),
});
