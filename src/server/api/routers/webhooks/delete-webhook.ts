import { z } from "zod";
import { emptyOutput } from "@/lib/schemas/common";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { deleteWebhook } from "@/server/domain/webhooks/delete-webhook";
import { webhookPathInput } from "./webhook.types";

export const deleteWebhookProcedure = protectedProcedure
  .meta({ permission: "webhooks.write",
    openapi: {
      method: "DELETE",
      path: "/public/projects/{projectId}/webhooks/{webhookId}",
      tags: ["Webhooks"],
      summary: "Delete a webhook and its logs",
      description: "Its pending deliveries are not sent.",
      successDescription: "Deleted. The body is empty.",
    },
  })
  .input(z.object(webhookPathInput))
  .output(emptyOutput)
  .mutation(async ({ ctx, input }) => {
    await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => deleteWebhook(tx, ctx.organizationId, input.projectId, input.webhookId),
      (w) => ({ action: "webhook.delete", target: { type: "webhook", id: w.id, label: w.name }, details: { projectId: input.projectId } }),
    );
  });
