import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { decideReviews } from "@/server/domain/reviews/decide-reviews";
import { decidedReviewsSchema, decideReviewsInput } from "./review.types";

export const decideReviewsProcedure = protectedProcedure
  .meta({
    permission: "reviews.decide",
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/reviews/decide",
      tags: ["Reviews"],
      summary: "Approve or deny several held rewards",
      description:
        "Decides each tracking id in `trackingIds` in the order sent, each exactly as its own approve or deny call would (its own transaction and audit entry), and answers each item's outcome: `granted`, `failed` with the reward's `reason` (for instance `referrer_cap_reached` when the referrer's cap was reached by the rewards granted before it), `not_in_review` or `not_found`. One item that cannot be decided never stops the others, so the answer is 200 whenever the project exists. `note` (optional) is kept with every decision.",
    },
  })
  .input(decideReviewsInput)
  .output(decidedReviewsSchema)
  .mutation(({ ctx, input }) =>
    decideReviews(
      { db: ctx.db, outbox: ctx.scheduler },
      { organizationId: ctx.organizationId, projectId: input.projectId },
      input.trackingIds,
      input.decision,
      auditActor(ctx),
      input.note ?? null,
    ),
  );
