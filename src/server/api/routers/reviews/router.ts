import { router } from "@/server/api/trpc/procedures";
import { approveReviewProcedure } from "./approve-review";
import { denyReviewProcedure } from "./deny-review";
import { listReviewsProcedure } from "./list-reviews";

export const reviewsRouter = router({
  list: listReviewsProcedure,
  approve: approveReviewProcedure,
  deny: denyReviewProcedure,
});
