import type { Prisma } from "@/generated/prisma/client";
import { getOwnedWebhook } from "./get-owned-webhook";

/**
 * Deletes the webhook and its deliveries (their log entries go with them by cascade). A delivery has no
 * foreign key to its webhook (migration 20261129220000_delivery_without_webhook_lock): one that a claim
 * in flight writes after this is left to the purge job (purgeOrphanDeliveries). Its id and name.
 */
export async function deleteWebhook(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  webhookId: string,
): Promise<{ id: string; name: string }> {
  const webhook = await getOwnedWebhook(db, organizationId, projectId, webhookId);
  await db.webhook.deleteMany({ where: { id: webhookId, projectId } });
  await db.$executeRaw`DELETE FROM "Delivery" WHERE "webhookId" = ${webhookId}`;
  return { id: webhook.id, name: webhook.name };
}
