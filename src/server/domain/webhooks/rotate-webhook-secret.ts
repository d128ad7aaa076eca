import type { Prisma } from "@/generated/prisma/client";
import { overlapEnd } from "@/lib/schemas/rotation";
import { generateWebhookSecret } from "@/lib/webhook-secrets";
import { getOwnedWebhook } from "./get-owned-webhook";
import { WEBHOOK_SECRET_WARNING } from "./to-webhook-dto";
import { encryptSecret, secretHint } from "./webhook-secret";

/**
 * A new generated secret for the webhook, returned this once. With an overlap the previous secret
 * keeps signing beside it (every delivery carries both signatures) until the overlap ends, so the
 * receiver can switch when it likes; without one it stops at once. Queued deliveries follow.
 */
export async function rotateWebhookSecret(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  webhookId: string,
  overlapHours = 0,
  now = new Date(),
) {
  const webhook = await getOwnedWebhook(db, organizationId, projectId, webhookId);
  const secret = generateWebhookSecret();
  const until = overlapEnd(overlapHours, now);
  await db.webhook.update({
    where: { id: webhookId },
    data: {
      secretEncrypted: encryptSecret(secret),
      secretHint: secretHint(secret),
      previousSecretEncrypted: until ? webhook.secretEncrypted : null,
      previousSecretExpiresAt: until,
    },
  });
  return {
    secret,
    warning: WEBHOOK_SECRET_WARNING,
    secretHint: secretHint(secret),
    previousSecretExpiresAt: until?.toISOString() ?? null,
    webhook: { id: webhook.id, name: webhook.name },
  };
}
