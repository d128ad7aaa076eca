import type { Prisma } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { parseWebhookCreate, type CreateWebhookInput } from "./parse-webhook-input";
import { toWebhookDto, WEBHOOK_SECRET_WARNING, type WebhookCreatedDto } from "./to-webhook-dto";

/** Creates a webhook under one of the project's campaigns; the result carries the secret, this once. */
export async function createWebhook(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  campaignId: string,
  input: CreateWebhookInput,
): Promise<WebhookCreatedDto> {
  await getOwnedProject(db, organizationId, projectId);
  const campaign = await db.campaign.findFirst({ where: { id: campaignId, projectId }, select: { id: true } });
  if (!campaign) throw notFound("Campaign");
  const { secret, ...data } = await parseWebhookCreate(input);
  const webhook = await db.webhook.create({ data: { ...data, projectId, campaignId } });
  return { ...toWebhookDto(webhook), secret, warning: WEBHOOK_SECRET_WARNING };
}
