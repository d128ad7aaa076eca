import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { createWebhook } from "@/server/domain/webhooks/create-webhook";
import { createWebhookInput, webhookCreatedSchema } from "./webhook.types";

export const createWebhookProcedure = protectedProcedure
  .meta({ permission: "webhooks.write",
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
  .mutation(({ ctx, input: { projectId, campaignId, ...body } }) =>
    audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => createWebhook(tx, ctx.organizationId, projectId, campaignId, body, ctx.config.urlRules),
      (w) => ({ action: "webhook.create", target: { type: "webhook", id: w.id, label: w.name }, details: { projectId, url: w.url, environment: w.environment, enabled: w.enabled } }),
    ),
  );
