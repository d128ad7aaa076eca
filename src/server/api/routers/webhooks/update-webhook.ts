import { protectedProcedure } from "@/server/api/trpc";
import { updateWebhook } from "@/server/domain/webhooks/update-webhook";
import { updateWebhookInput, webhookDtoSchema } from "./webhook.types";

export const updateWebhookProcedure = protectedProcedure
  .meta({
    openapi: {
      method: "PUT",
      path: "/public/projects/{projectId}/webhooks/{webhookId}",
      tags: ["Webhooks"],
      summary: "Update a webhook",
      description: "Changes the fields present in the body (name, url, secret, enabled, environment).",
    },
  })
  .input(updateWebhookInput)
  .output(webhookDtoSchema)
  .mutation(({ ctx, input: { projectId, webhookId, ...body } }) => updateWebhook(ctx.db, ctx.organizationId, projectId, webhookId, body, ctx.config.urlRules));
