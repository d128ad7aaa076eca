import { z } from "zod";
import { can } from "@/lib/permissions";
import { projectIdInput } from "@/lib/schemas/common";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure, type Actor, type Context } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { findLogProject } from "@/server/domain/deliveries/find-log-project";
import { retryDeliveryLog } from "@/server/domain/deliveries/retry-delivery-log";
import { logIdInput, retryResultSchema } from "./webhook.types";

const RETRY_DOC =
  "Re-sends a failed entry's delivery: same payload, same delivery id, a new attempt logged as a new entry. Answers 202 with the queued delivery; follow the result in the logs. Retrying a successful entry, or a delivery that is still retrying on its own or whose webhook is disabled, is a 409. A test event's entry is re-sent under the rule of sending one: `webhooks.write` (403 otherwise), and a disabled webhook gets it too.";
const errors = [{ status: 409, description: "The entry cannot be retried (succeeded, already scheduled, or webhook disabled)." }];

/** The retry and its audit entry commit together; the scheduler is told after the commit. */
async function retryAndEnqueue(ctx: Context & { actor: Actor; organizationId: string }, projectId: string, logId: string) {
  const result = await audited(
    ctx.db,
    ctx.organizationId,
    auditActor(ctx),
    (tx) => retryDeliveryLog(tx, ctx.organizationId, projectId, logId, can(ctx.actor.role, "webhooks.write")),
    (r) => ({ action: "delivery.retry", target: { type: "delivery", id: r.deliveryId }, details: { projectId, webhookId: r.webhookId, logId } }),
  );
  await ctx.scheduler.enqueue([result.deliveryId]);
  return result;
}

export const retryDeliveryLogProcedure = protectedProcedure
  .meta({ permission: "deliveries.retry",
    status: 202,
    errors,
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/webhooks/logs/{logId}/retry",
      tags: ["Webhooks"],
      summary: "Retry a failed delivery log entry",
      description: RETRY_DOC,
    },
  })
  .input(z.object({ ...projectIdInput, ...logIdInput }))
  .output(retryResultSchema)
  .mutation(({ ctx, input }) => retryAndEnqueue(ctx, input.projectId, input.logId));

/** The same call without the project prefix: the project is the log's, checked against the caller. */
export const retryDeliveryLogByIdProcedure = protectedProcedure
  .meta({ permission: "deliveries.retry",
    status: 202,
    errors,
    openapi: {
      method: "POST",
      path: "/public/webhooks/logs/{logId}/retry",
      tags: ["Webhooks"],
      summary: "Retry a failed delivery log entry (project derived from the log)",
      description: RETRY_DOC,
    },
  })
  .input(z.object(logIdInput))
  .output(retryResultSchema)
  .mutation(async ({ ctx, input }) => {
    const projectId = await findLogProject(ctx.db, ctx.organizationId, input.logId);
    return retryAndEnqueue(ctx, projectId, input.logId);
  });
