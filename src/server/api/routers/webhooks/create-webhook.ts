import { protectedProcedure } from "@/server/api/trpc";
import { createWebhook } from "@/server/domain/webhooks/create-webhook";
import { createWebhookInput, webhookCreatedSchema } from "./webhook.types";

export const createWebhookProcedure = protectedProcedure
  .meta({
    secret: true,
    status: 201,
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/webhooks/{campaignId}",
      tags: ["Webhooks"],
      summary: "Create a webhook under the campaign",
      description: "The secret is stored encrypted and returned only in this response. The environment scope field is `environment`.",
    },
  })
  .input(createWebhookInput)
  .output(webhookCreatedSchema)
  .mutation(({ ctx, input: { projectId, campaignId, ...body } }) => createWebhook(ctx.db, ctx.organizationId, projectId, campaignId, body, ctx.config.urlRules));
