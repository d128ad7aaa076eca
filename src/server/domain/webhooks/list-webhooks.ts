import type { Prisma } from "@/generated/prisma/client";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { toWebhookDto, type WebhookDto } from "./to-webhook-dto";

/** All webhooks of the project, oldest first (a project has a handful, so no paging). */
export async function listWebhooks(db: Prisma.TransactionClient, organizationId: string, projectId: string): Promise<WebhookDto[]> {
  await getOwnedProject(db, organizationId, projectId);
  const webhooks = await db.webhook.findMany({ where: { projectId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return webhooks.map(toWebhookDto);
}
