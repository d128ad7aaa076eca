import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { updateWebhook } from "@/server/domain/webhooks/update-webhook";
import { updateWebhookInput, webhookDtoSchema } from "./webhook.types";

export const updateWebhookProcedure = protectedProcedure
  .meta({ permission: "webhooks.write",
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
  .mutation(({ ctx, input: { projectId, webhookId, ...body } }) =>
    audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => updateWebhook(tx, ctx.organizationId, projectId, webhookId, body, ctx.config.urlRules),
      // Which fields changed, never the secret itself.
      (w) => ({
        action: "webhook.update",
        target: { type: "webhook", id: w.id, label: w.name },
        details: { projectId, changed: Object.keys(body).filter((k) => body[k as keyof typeof body] !== undefined).sort() },
      }),
    ),
  );
