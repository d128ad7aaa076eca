import { EXAMPLE } from "@/lib/schemas/examples";
import { rewardOutput } from "@/server/api/routers/referrals/referral.types";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { decideReview } from "@/server/domain/reviews/decide-review";
import { denyReviewInput } from "./review.types";

export const denyReviewProcedure = protectedProcedure
  .meta({
    permission: "reviews.decide",
    // The body's one field is optional: callers from before it existed send none.
    optionalBody: true,
    answerExample: { rewardClaimed: false, status: "Failed", reason: "denied_in_review", referralTrackingId: EXAMPLE.trackingId },
    errors: [{ status: 409, description: "The referral is not in the review queue: decided already (by a concurrent decision too), never held, or final." }],
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/reviews/{trackingId}/deny",
      tags: ["Reviews"],
      summary: "Deny a held reward",
      description:
        "The item becomes `Failed` with reason `denied_in_review`; nothing is delivered. An item not in review answers 409. The body is optional: its `note`, the reason in words, is kept with the decision exactly as the bulk decision's (the history of decisions, the export and the audit entry). Audited.",
    },
  })
  .input(denyReviewInput)
  .output(rewardOutput)
  .mutation(({ ctx, input }) =>
    decideReview(
      { db: ctx.db, outbox: ctx.scheduler },
      { organizationId: ctx.organizationId, projectId: input.projectId },
      input.trackingId,
      "deny",
      auditActor(ctx),
      new Date(),
      input.note ?? null,
    ),
  );
