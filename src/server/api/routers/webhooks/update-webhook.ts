import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { fieldChanges } from "@/server/domain/audit/field-changes";
import { getOwnedWebhook } from "@/server/domain/webhooks/get-owned-webhook";
import { toWebhookDto, type WebhookDto } from "@/server/domain/webhooks/to-webhook-dto";
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
  .mutation(async ({ ctx, input: { projectId, webhookId, ...body } }) => {
    const { after } = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      async (tx) => {
        const before = toWebhookDto(await getOwnedWebhook(tx, ctx.organizationId, projectId, webhookId));
        return { before, after: await updateWebhook(tx, ctx.organizationId, projectId, webhookId, body, ctx.config.urlRules) };
      },
      // Which fields were sent, and what changed field by field; the secret never, only that it changed.
      ({ before, after: w }) => ({
        action: "webhook.update",
        target: { type: "webhook", id: w.id, label: w.name },
        details: {
          projectId,
          changed: Object.keys(body).filter((k) => body[k as keyof typeof body] !== undefined).sort(),
          changes: fieldChanges(settings(before), settings(w), ["secretHint"]),
        },
      }),
    );
    return after;
  });

/** What a person sets on a webhook, as the answer shows it (the secret as its hint, reported only as changed). */
const settings = ({ health: _h, updatedAt: _u, failingSince: _f, disabledAt: _d, previousSecretExpiresAt: _p, ...rest }: WebhookDto) => rest;
