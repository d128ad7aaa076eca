import type { Prisma } from "@/generated/prisma/client";
import { getOwnedWebhook } from "./get-owned-webhook";

/** Deletes the webhook; its deliveries and their log entries go with it (database cascade). Its id and name. */
export async function deleteWebhook(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  webhookId: string,
): Promise<{ id: string; name: string }> {
  const webhook = await getOwnedWebhook(db, organizationId, projectId, webhookId);
  await db.webhook.deleteMany({ where: { id: webhookId, projectId } });
  return { id: webhook.id, name: webhook.name };
}
