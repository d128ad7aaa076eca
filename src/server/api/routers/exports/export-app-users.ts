import { protectedProcedure } from "@/server/api/trpc/procedures";
import { auditExport } from "./audit-export";
import { limitExport } from "@/server/api/trpc/rate-limits";
import { exportAppUsers } from "@/server/domain/exports/export-app-users";
import { appUsersExportInput, CSV_RULES, csvExportOutput, EXPORT_ERRORS } from "./export.types";

export const exportAppUsersProcedure = protectedProcedure
  .meta({
    permission: "appUsers.read",
    download: "text/csv",
    errors: EXPORT_ERRORS,
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/exports/app-users.csv",
      tags: ["Insight"],
      summary: "Export the project's app users as CSV",
      description:
        "The app users the list's filters select (`search`, `hasReferrals`, `attributeKey` with `attributeValue`), oldest first: uniqueId, clientProvidedId, referralCode, status, the referral counts, " +
        `firstSeenAt, lastSeenAt, createdAt, then one column per attribute key given in \`attributes\` (empty where a user has none). ${CSV_RULES}`,
    },
  })
  .input(appUsersExportInput)
  .output(csvExportOutput)
  .query(async ({ ctx, input: { projectId, ...filter } }) => {
    await limitExport(ctx, ctx.organizationId);
    const file = await exportAppUsers(ctx.db, ctx.organizationId, projectId, filter);
    await auditExport(ctx, "export.app_users", projectId, filter);
    return file;
  });
