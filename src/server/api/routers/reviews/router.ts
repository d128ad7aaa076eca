import { router } from "@/server/api/trpc/procedures";
import { approveReviewProcedure } from "./approve-review";
import { decideReviewsProcedure } from "./decide-reviews";
import { denyReviewProcedure } from "./deny-review";
import { listReviewDecisionsProcedure } from "./list-review-decisions";
import { listReviewsProcedure } from "./list-reviews";

export const reviewsRouter = router({
  list: listReviewsProcedure,
  approve: approveReviewProcedure,
  deny: denyReviewProcedure,
  decide: decideReviewsProcedure,
  decisions: listReviewDecisionsProcedure,
});
