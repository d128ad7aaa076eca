import { MAX_LEADERBOARD_LIMIT } from "@/lib/schemas/stats";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { limitExport } from "@/server/api/trpc/rate-limits";
import { auditExport } from "./audit-export";
import { exportLeaderboard } from "@/server/domain/exports/export-leaderboard";
import { CSV_RULES, csvExportOutput, EXPORT_ERRORS, projectExportInput } from "./export.types";

export const exportLeaderboardProcedure = protectedProcedure
  .meta({
    permission: "referrals.read",
    download: "text/csv",
    errors: EXPORT_ERRORS,
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/exports/leaderboard.csv",
      tags: ["Insight"],
      summary: "Export the leaderboard as CSV",
      description: `The ${MAX_LEADERBOARD_LIMIT} best referrers of all time as GET .../leaderboard ranks them: rank, clientProvidedId, uniqueId, successfulReferrals, totalReferralsGiven. ${CSV_RULES}`,
    },
  })
  .input(projectExportInput)
  .output(csvExportOutput)
  .query(async ({ ctx, input: { projectId } }) => {
    await limitExport(ctx, ctx.organizationId);
    const file = await exportLeaderboard(ctx.db, ctx.organizationId, projectId);
    await auditExport(ctx, "export.leaderboard", projectId, {});
    return file;
  });
