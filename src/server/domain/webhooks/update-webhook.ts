import type { Prisma } from "@/generated/prisma/client";
import type { UrlRules } from "@/server/config";
import { getOwnedWebhook } from "./get-owned-webhook";
import { webhookColumns, type UpdateWebhookInput } from "./webhook-write";
import { toWebhookDto, type WebhookDto } from "./to-webhook-dto";

/**
 * Changes the fields given (url, name, secret, enabled, environment) and leaves the others. Already
 * queued deliveries follow the new state: they are sent to the new URL with the new secret, and not
 * at all once the webhook is disabled.
 */
export async function updateWebhook(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  webhookId: string,
  input: UpdateWebhookInput,
  rules: UrlRules,
): Promise<WebhookDto> {
  await getOwnedWebhook(db, organizationId, projectId, webhookId);
  const data = await webhookColumns(input, rules);
  const webhook = await db.webhook.update({ where: { id: webhookId }, data });
  return toWebhookDto(webhook);
}
