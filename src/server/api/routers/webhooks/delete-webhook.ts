import { z } from "zod";
import { emptyOutput } from "@/lib/schemas/common";
import { protectedProcedure } from "@/server/api/trpc";
import { deleteWebhook } from "@/server/domain/webhooks/delete-webhook";
import { webhookPathInput } from "./webhook.types";

export const deleteWebhookProcedure = protectedProcedure
  .meta({
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
    await deleteWebhook(ctx.db, ctx.organizationId, input.projectId, input.webhookId);
  });
