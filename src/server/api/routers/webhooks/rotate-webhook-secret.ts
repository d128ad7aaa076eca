import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { rotateWebhookSecret } from "@/server/domain/webhooks/rotate-webhook-secret";
import { rotateWebhookSecretInput, webhookSecretRotatedSchema } from "./webhook.types";

export const rotateWebhookSecretProcedure = protectedProcedure
  .meta({ permission: "webhooks.write",
    secret: true,
    optionalBody: true,
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/webhooks/{webhookId}/rotate-secret",
      tags: ["Webhooks"],
      summary: "Rotate a webhook's secret",
      description:
        "Generates a new Standard Webhooks secret (`whsec_`), shown once. Without a body (or with `overlapHours` 0) the previous secret stops at once; " +
        "with `overlapHours` 1 or 24 every delivery until `previousSecretExpiresAt` carries two signatures in `webhook-signature` (space separated: the new secret's, then the previous one's), " +
        "so a receiver verifies with whichever it holds. `Authorization` carries the new secret.",
    },
  })
  .input(rotateWebhookSecretInput)
  .output(webhookSecretRotatedSchema)
  .mutation(async ({ ctx, input: { projectId, webhookId, overlapHours } }) => {
    const { webhook: _webhook, ...rotated } = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => rotateWebhookSecret(tx, ctx.organizationId, projectId, webhookId, overlapHours),
      (r) => ({
        action: "webhook.rotate_secret",
        target: { type: "webhook", id: r.webhook.id, label: r.webhook.name },
        details: { projectId, overlapHours: overlapHours ?? 0, previousSecretExpiresAt: r.previousSecretExpiresAt },
      }),
    );
    return rotated;
  });
