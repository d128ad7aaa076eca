import type { Prisma } from "@/generated/prisma/client";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { toWebhookDto, type WebhookDto } from "./to-webhook-dto";
import { NO_HEALTH, webhookHealth } from "./webhook-health-figures";

/** All webhooks of the project with their health, oldest first (a project has a handful, so no paging). */
export async function listWebhooks(db: Prisma.TransactionClient, organizationId: string, projectId: string): Promise<WebhookDto[]> {
  await getOwnedProject(db, organizationId, projectId);
  const webhooks = await db.webhook.findMany({ where: { projectId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const health = await webhookHealth(db, webhooks.map((w) => w.id));
  return webhooks.map((webhook) => toWebhookDto(webhook, health.get(webhook.id) ?? NO_HEALTH));
}
