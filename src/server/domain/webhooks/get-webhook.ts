import type { Prisma } from "@/generated/prisma/client";
import { getOwnedWebhook } from "./get-owned-webhook";
import { toWebhookDto, type WebhookDto } from "./to-webhook-dto";
import { NO_HEALTH, webhookHealth } from "./webhook-health-figures";

export async function getWebhook(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  webhookId: string,
): Promise<WebhookDto> {
  const webhook = await getOwnedWebhook(db, organizationId, projectId, webhookId);
  return toWebhookDto(webhook, (await webhookHealth(db, [webhook.id])).get(webhook.id) ?? NO_HEALTH);
}
