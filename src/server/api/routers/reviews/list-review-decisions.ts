import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listReviewDecisions } from "@/server/domain/reviews/list-review-decisions";
import { listReviewDecisionsInput, reviewDecisionPageSchema } from "./review.types";

export const listReviewDecisionsProcedure = protectedProcedure
  .meta({
    permission: "reviews.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/reviews/decisions",
      tags: ["Reviews"],
      summary: "The review queue's history of decisions",
      description:
        "Every decision on a held reward, newest first: approve or deny, who decided (null when a hold ended by itself), the reviewer's `note`, why it had been held and the item's outcome. `trackingId` keeps one referral's decisions.",
    },
  })
  .input(listReviewDecisionsInput)
  .output(reviewDecisionPageSchema)
  .query(({ ctx, input: { projectId, ...query } }) => listReviewDecisions(ctx.db, ctx.organizationId, projectId, query));
