import type { Prisma } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

/** The webhook if it belongs to a project the organisation owns; otherwise "not found", like an absent one. */
export async function getOwnedWebhook(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  webhookId: string,
) {
  await getOwnedProject(db, organizationId, projectId);
  const webhook = await db.webhook.findFirst({ where: { id: webhookId, projectId } });
  if (!webhook) throw notFound("Webhook");
  return webhook;
}
