import { BULK_RETRY_MAX } from "@/lib/schemas/deliveries";
import { can } from "@/lib/permissions";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { limitBulkRetry } from "@/server/api/trpc/rate-limits";
import { audited } from "@/server/domain/audit/audited";
import { retryDeliveries } from "@/server/domain/deliveries/retry-deliveries";
import { bulkRetryInput, bulkRetryResultSchema } from "./delivery.types";

export const retryDeliveriesProcedure = protectedProcedure
  .meta({
    permission: "deliveries.retry",
    status: 202,
    batch: false,
    errors: [{ status: 429, description: "Too many bulk retries for the organisation this hour (RATE_LIMIT_BULK_RETRY_PER_HOUR)." }],
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/deliveries/retry",
      tags: ["Deliveries"],
      summary: "Retry every delivery a filter selects",
      description:
        "The body is the filter of the search (`search`, `status`, `webhookId`, `event`, `from`, `to`). Every delivery it selects that a single retry would accept " +
        `(not Succeeded, not being sent, body kept, webhook enabled; test events only for a caller who may send one, \`webhooks.write\`) is sent now, with its own id. Answers 202 with how many were queued. More than ${BULK_RETRY_MAX.toLocaleString("en-GB")} ` +
        "selected is a 400 asking to narrow the filter, and nothing is retried; a `webhookId` of no webhook of the project is a 404. One audit entry records the filter and the count. Limited per organisation per hour.",
    },
  })
  .input(bulkRetryInput)
  .output(bulkRetryResultSchema)
  .mutation(async ({ ctx, input: { projectId, ...filter } }) => {
    await limitBulkRetry(ctx, ctx.organizationId);
    const { deliveryIds, ...result } = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => retryDeliveries(tx, ctx.organizationId, projectId, filter, can(ctx.actor.role, "webhooks.write")),
      (r) => ({ action: "delivery.bulk_retry", target: { type: "project", id: projectId }, details: { filter, count: r.count } }),
    );
    await ctx.scheduler.enqueue(deliveryIds);
    return result;
  });
