import { protectedProcedure } from "@/server/api/trpc/procedures";
import { limitExport } from "@/server/api/trpc/rate-limits";
import { auditExport } from "./audit-export";
import { exportReviewDecisions } from "@/server/domain/exports/export-review-decisions";
import { CSV_RULES, csvExportOutput, EXPORT_ERRORS, projectExportInput } from "./export.types";

export const exportReviewDecisionsProcedure = protectedProcedure
  .meta({
    permission: "reviews.read",
    download: "text/csv",
    errors: EXPORT_ERRORS,
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/exports/review-decisions.csv",
      tags: ["Reviews"],
      summary: "Export the review queue's decisions as CSV",
      description: `Every decision on a held reward, oldest first: decidedAt, trackingId, decision (approve or deny), note (the reviewer's reason), heldFor (the reasons it was held, space-separated), status, failureReason, decidedBy (empty where a hold ended by itself). ${CSV_RULES}`,
    },
  })
  .input(projectExportInput)
  .output(csvExportOutput)
  .query(async ({ ctx, input: { projectId } }) => {
    await limitExport(ctx, ctx.organizationId);
    const file = await exportReviewDecisions(ctx.db, ctx.organizationId, projectId);
    await auditExport(ctx, "export.review_decisions", projectId, {});
    return file;
  });
