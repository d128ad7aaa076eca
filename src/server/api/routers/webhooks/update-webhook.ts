import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { updateWebhook } from "@/server/domain/webhooks/update-webhook";
import { updateWebhookInput, webhookUpdatedSchema } from "./webhook.types";

export const updateWebhookProcedure = protectedProcedure
  .meta({ permission: "webhooks.write",
    // The answer carries the secret when this request generated it.
    secret: true,
    openapi: {
      method: "PUT",
      path: "/public/projects/{projectId}/webhooks/{webhookId}",
      tags: ["Webhooks"],
      summary: "Update a webhook",
      description:
        "Changes the fields present in the body (name, url, secret, enabled, environment). A different `url` needs a new secret in the same body: `secret`, or `generateSecret: true` to have one generated and returned once in this answer; without either it is a 400 naming `secret`. The audit log records the URL change and that the secret was replaced (never the secret).",
    },
  })
  .input(updateWebhookInput)
  .output(webhookUpdatedSchema)
  .mutation(({ ctx, input: { projectId, webhookId, ...body } }) =>
    audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => updateWebhook(tx, ctx.organizationId, projectId, webhookId, body, ctx.config.urlRules),
      // Which fields changed, the URL's move and how the secret was replaced, never the secret itself.
      (w) => ({
        action: "webhook.update",
        target: { type: "webhook", id: w.id, label: w.name },
        details: {
          projectId,
          changed: [...new Set(Object.keys(body).filter((k) => body[k as keyof typeof body] !== undefined && (k !== "generateSecret" || body.generateSecret)).map((k) => (k === "generateSecret" ? "secret" : k)))].sort(),
          ...(w.urlChanged ? { url: w.urlChanged } : {}),
          ...(w.secretReplaced ? { secretReplaced: w.secretReplaced } : {}),
        },
      }),
    ).then(({ urlChanged: _url, secretReplaced: _secret, ...answer }) => answer),
  );
