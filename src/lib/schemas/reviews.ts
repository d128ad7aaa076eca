import { z } from "zod";
import { caseInsensitive, MAX_PAGE_SIZE } from "./common";
import { REVIEW_REASON_CODES } from "./reward-rules";

/*
 * Decisions in the review queue: one or several held rewards, and the reviewer's reason in words.
 * One definition for the API and the dashboard's dialog.
 */

export const REVIEW_NOTE_MAX_LENGTH = 500;
export const REVIEW_DECISIONS = ["approve", "deny"] as const;
/** Items decided in one bulk call: a page of the queue at most. */
export const MAX_BULK_DECISIONS = MAX_PAGE_SIZE;

/** The reviewer's reason, kept with the decision (its history, the audit log, the export); blank is none. */
export const reviewNote = z
  .string()
  .trim()
  .max(REVIEW_NOTE_MAX_LENGTH)
  .transform((v) => v || undefined)
  .describe(`Why, in words (at most ${REVIEW_NOTE_MAX_LENGTH} characters): kept with the decision, shown in its history, exported and audited. Optional.`)
  .meta({ examples: ["Same household; the referrer confirmed by e-mail"] });

export const reviewDecisionBody = z
  .object({
    decision: caseInsensitive(REVIEW_DECISIONS).describe("approve or deny (any case)."),
    trackingIds: z
      .array(z.guid())
      .min(1)
      .max(MAX_BULK_DECISIONS)
      .describe(`The held referrals' tracking ids, 1 to ${MAX_BULK_DECISIONS}, decided in this order (a repeated id is decided once).`),
    note: reviewNote.optional(),
  })
  .meta({
    title: "ReviewDecisionRequest",
    examples: [{ decision: "deny", trackingIds: ["3f0e2a64-5b1c-4d7e-9f8a-1b2c3d4e5f60"], note: "Same household; the referee never signed in" }],
  });

/** A single denial's body, optional: without it the denial keeps no reason (as before the field existed). */
export const denyReviewBody = z
  .object({ note: reviewNote.optional() })
  .meta({ title: "DenyReviewRequest", examples: [{ note: "Same household; the referee never signed in" }] });

export const reviewReasonFilter = z.enum(REVIEW_REASON_CODES).describe("Only the rewards held for this reason.");

/** What happened to one item of a decision. */
export const DECISION_OUTCOMES = {
  granted: "the reward completed and its webhooks are on their way",
  failed: "the reward did not complete: `reason` says why (a check on approval, or `denied_in_review`)",
  not_in_review: "not decided: the item is not in the queue (decided already, by a concurrent decision too, or never held)",
  not_found: "not decided: no such referral in the project",
} as const;
export const DECISION_OUTCOME_CODES = Object.keys(DECISION_OUTCOMES) as [keyof typeof DECISION_OUTCOMES, ...(keyof typeof DECISION_OUTCOMES)[]];
