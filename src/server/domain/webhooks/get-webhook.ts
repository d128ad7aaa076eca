import type { Prisma } from "@/generated/prisma/client";
import { getOwnedWebhook } from "./get-owned-webhook";
import { toWebhookDto, type WebhookDto } from "./to-webhook-dto";

export async function getWebhook(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  webhookId: string,
): Promise<WebhookDto> {
  return toWebhookDto(await getOwnedWebhook(db, organizationId, projectId, webhookId));
}
