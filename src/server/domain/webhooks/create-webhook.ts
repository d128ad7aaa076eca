import type { Prisma } from "@/generated/prisma/client";
import { generateWebhookSecret } from "@/lib/webhook-secrets";
import type { UrlRules } from "@/server/config";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { webhookColumns, type CreateWebhookInput } from "./webhook-write";
import { toWebhookDto, WEBHOOK_SECRET_WARNING, type WebhookCreatedDto } from "./to-webhook-dto";

/**
 * Creates a webhook under one of the project's campaigns; without a secret one is generated. The result
 * carries the secret, this once.
 */
export async function createWebhook(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  campaignId: string,
  input: CreateWebhookInput,
  rules: UrlRules,
): Promise<WebhookCreatedDto> {
  await getOwnedProject(db, organizationId, projectId);
  const campaign = await db.campaign.findFirst({ where: { id: campaignId, projectId }, select: { id: true } });
  if (!campaign) throw notFound("Campaign");
  const secret = input.secret ?? generateWebhookSecret();
  const data = await webhookColumns({ ...input, secret }, rules);
  const webhook = await db.webhook.create({ data: { ...data, projectId, campaignId } });
  return { ...toWebhookDto(webhook), secret, warning: WEBHOOK_SECRET_WARNING };
}
