import { can } from "@/lib/permissions";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { retryDelivery } from "@/server/domain/deliveries/retry-delivery";
import { deliveryPathInput, retriedDeliverySchema } from "./delivery.types";

export const retryDeliveryProcedure = protectedProcedure
  .meta({
    permission: "deliveries.retry",
    status: 202,
    errors: [{ status: 409, description: "The delivery cannot be retried now: it succeeded, an attempt is in flight, its body was purged, or its webhook is disabled." }],
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/deliveries/{deliveryId}/retry",
      tags: ["Deliveries"],
      summary: "Retry a delivery (or send a pending one now)",
      description:
        "Re-sends a Failed delivery, or sends a Pending one now rather than at its `nextAttemptAt`: the same delivery id and body, a new attempt with the next number. " +
        "Answers 202 with the queued delivery; follow it with GET .../deliveries/{deliveryId}. A Succeeded delivery, one being sent right now, one whose body was purged, " +
        "or one whose webhook is disabled is a 409. A test event's delivery is re-sent under the rule of sending one: it needs `webhooks.write` (403 otherwise, a viewer's retry included) and reaches a disabled webhook too. " +
        "Another organisation's delivery is a 404.",
    },
  })
  .input(deliveryPathInput)
  .output(retriedDeliverySchema)
  .mutation(async ({ ctx, input: { projectId, deliveryId } }) => {
    // The retry and its audit entry commit together; the scheduler is told after the commit.
    const result = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => retryDelivery(tx, ctx.organizationId, projectId, deliveryId, can(ctx.actor.role, "webhooks.write")),
      (r) => ({ action: "delivery.retry", target: { type: "delivery", id: r.deliveryId }, details: { projectId, webhookId: r.webhookId } }),
    );
    await ctx.scheduler.enqueue([result.deliveryId]);
    return result;
  });
