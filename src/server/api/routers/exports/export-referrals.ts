import { protectedProcedure } from "@/server/api/trpc/procedures";
import { auditExport } from "./audit-export";
import { limitExport } from "@/server/api/trpc/rate-limits";
import { exportReferrals } from "@/server/domain/exports/export-referrals";
import { CSV_RULES, csvExportOutput, EXPORT_ERRORS, referralsExportInput } from "./export.types";

export const exportReferralsProcedure = protectedProcedure
  .meta({
    permission: "referrals.read",
    download: "text/csv",
    errors: EXPORT_ERRORS,
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/exports/referrals.csv",
      tags: ["Insight"],
      summary: "Export the project's referrals as CSV",
      description:
        "The referral tracking items the referrals list's filter selects (`search`, `status`, `from`, `to`, as GET .../referrals takes them), by status then oldest first: " +
        `trackingId, status, referrerId and refereeId (client ids; the referee empty until known, either empty once erased), referralCode, rewardEventName, failureReason, rewardClaimed, rewardClaimedAt, createdAt. ${CSV_RULES}`,
    },
  })
  .input(referralsExportInput)
  .output(csvExportOutput)
  .query(async ({ ctx, input: { projectId, ...filter } }) => {
    await limitExport(ctx, ctx.organizationId);
    const file = await exportReferrals(ctx.db, ctx.organizationId, projectId, filter);
    await auditExport(ctx, "export.referrals", projectId, filter);
    return file;
  });
