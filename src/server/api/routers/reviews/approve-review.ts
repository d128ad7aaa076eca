import { rewardOutput } from "@/server/api/routers/referrals/referral.types";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { decideReview } from "@/server/domain/reviews/decide-review";
import { reviewPathInput } from "./review.types";

export const approveReviewProcedure = protectedProcedure
  .meta({
    permission: "reviews.decide",
    errors: [{ status: 409, description: "The referral is not in the review queue: decided already (by a concurrent decision too), never held, or final." }],
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/reviews/{trackingId}/approve",
      tags: ["Reviews"],
      summary: "Approve a held reward",
      description: "Completes the reward exactly as the reward call would have: the eligibility checks (as of when it was held), the referrer's caps, then the reward history, counters and one webhook delivery per routed webhook. The answer is the reward call's: `rewardClaimed: true`, or `false` with the reason a check failed (the item then Failed). Of concurrent decisions on one item exactly one acts; the others, and any decision on an item not in review, answer 409. Audited.",
    },
  })
  .input(reviewPathInput)
  .output(rewardOutput)
  .mutation(({ ctx, input }) =>
    decideReview({ db: ctx.db, outbox: ctx.scheduler }, { organizationId: ctx.organizationId, projectId: input.projectId }, input.trackingId, "approve", auditActor(ctx)),
  );
