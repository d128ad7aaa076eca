import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { fieldChanges } from "@/server/domain/audit/field-changes";
import { getOwnedWebhook } from "@/server/domain/webhooks/get-owned-webhook";
import { toWebhookDto, type WebhookDto } from "@/server/domain/webhooks/to-webhook-dto";
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
  .mutation(async ({ ctx, input: { projectId, webhookId, ...body } }) => {
    const { after } = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      async (tx) => {
        const before = toWebhookDto(await getOwnedWebhook(tx, ctx.organizationId, projectId, webhookId));
        return { before, after: await updateWebhook(tx, ctx.organizationId, projectId, webhookId, body, ctx.config.urlRules) };
      },
      // Which fields were sent and what changed field by field, the URL's move and how the secret was
      // replaced; never the secret itself, only that it changed.
      ({ before, after: w }) => ({
        action: "webhook.update",
        target: { type: "webhook", id: w.id, label: w.name },
        details: {
          projectId,
          changed: [...new Set(Object.keys(body).filter((k) => body[k as keyof typeof body] !== undefined && (k !== "generateSecret" || body.generateSecret)).map((k) => (k === "generateSecret" ? "secret" : k)))].sort(),
          changes: fieldChanges(settings(before), settings(w), ["secretHint"]),
          ...(w.urlChanged ? { url: w.urlChanged } : {}),
          ...(w.secretReplaced ? { secretReplaced: w.secretReplaced } : {}),
        },
      }),
    );
    const { urlChanged: _url, secretReplaced: _secret, ...answer } = after;
    return answer;
  });

/**
 * What a person sets on a webhook, as the answer shows it (the secret as its hint, reported only as
 * changed): an update's own extras (a generated secret, the URL's move) never reach the diff.
 */
const settings = (w: WebhookDto & { secret?: string; warning?: string; urlChanged?: unknown; secretReplaced?: unknown }) => {
  const { health: _h, updatedAt: _u, failingSince: _f, disabledAt: _d, previousSecretExpiresAt: _p, secret: _s, warning: _w, urlChanged: _c, secretReplaced: _r, ...rest } = w;
  return rest;
};
