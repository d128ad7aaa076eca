import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listReviews } from "@/server/domain/reviews/list-reviews";
import { listReviewsInput, reviewPageSchema } from "./review.types";

export const listReviewsProcedure = protectedProcedure
  .meta({
    permission: "reviews.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/reviews",
      tags: ["Reviews"],
      summary: "List the review queue",
      description:
        "Rewards a campaign rule holds back (`rewardRules`: a rule set to `review`, or `holdDays`), oldest first. Their tracking items stay `Pending` and nothing is delivered until they are approved, denied, or their hold ends. Each carries what a reviewer decides on: the referee's e-mail and where their client was seen (marked where the referrer's was too), and the referrer's record (referrals, rewards, earlier denials). `reason` keeps only the items held for that reason.",
    },
  })
  .input(listReviewsInput)
  .output(reviewPageSchema)
  .query(({ ctx, input: { projectId, ...paging } }) => listReviews(ctx.db, ctx.organizationId, projectId, paging));
