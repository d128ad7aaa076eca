import { z } from "zod";
import { idInput, pageOf, pagingInput, projectIdInput } from "@/lib/schemas/common";
import { EXAMPLE } from "@/lib/schemas/examples";
import { REWARD_ENVIRONMENTS } from "@/lib/schemas/referrals";
import { REVIEW_REASON_CODES } from "@/lib/schemas/reward-rules";

export const reviewDtoSchema = z
  .object({
    trackingId: z.guid().describe("The held referral's tracking id."),
    referrerId: z.string().nullable().describe("The referrer's clientProvidedId."),
    referrerUniqueId: z.guid().nullable(),
    refereeId: z.string().nullable().describe("The referee's clientProvidedId."),
    refereeUniqueId: z.guid().nullable(),
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
        event: EXAMPLE.eventName,
        environment: "Production",
        reasons: ["hold"],
        holdUntil: EXAMPLE.later,
        heldAt: EXAMPLE.at,
      },
    ],
  });

export const reviewPageSchema = pageOf(reviewDtoSchema).meta({ id: "ReviewPage" });
export const listReviewsInput = z.object({ ...projectIdInput, ...pagingInput });
export const reviewPathInput = z.object({
  ...projectIdInput,
  trackingId: idInput().describe("The held referral's tracking id.").meta({ examples: [EXAMPLE.trackingId] }),
});
