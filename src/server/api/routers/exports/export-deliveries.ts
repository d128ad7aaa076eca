import { protectedProcedure } from "@/server/api/trpc/procedures";
import { auditExport } from "./audit-export";
import { limitExport } from "@/server/api/trpc/rate-limits";
import { exportDeliveries } from "@/server/domain/exports/export-deliveries";
import { CSV_RULES, csvExportOutput, deliveriesExportInput, EXPORT_ERRORS } from "./export.types";

export const exportDeliveriesProcedure = protectedProcedure
  .meta({
    permission: "webhooks.read",
    download: "text/csv",
    errors: EXPORT_ERRORS,
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/exports/deliveries.csv",
      tags: ["Insight"],
      summary: "Export the project's deliveries as CSV",
      description:
        "The deliveries the delivery search's filter selects (`search`, `status`, `webhookId`, `event`, `from`, `to`, as `GET /projects/{projectId}/deliveries` takes them), oldest first: " +
        `deliveryId, webhookId, webhookName, trackingId, referrerId, refereeId, event, status, attempts, lastAttemptAt, lastHttpStatus, lastError, failure, createdAt. ${CSV_RULES}`,
    },
  })
  .input(deliveriesExportInput)
  .output(csvExportOutput)
  .query(async ({ ctx, input: { projectId, ...filter } }) => {
    await limitExport(ctx, ctx.organizationId);
    const file = await exportDeliveries(ctx.db, ctx.organizationId, projectId, filter);
    await auditExport(ctx, "export.deliveries", projectId, filter);
    return file;
  });
