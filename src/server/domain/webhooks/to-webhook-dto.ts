import type { Webhook, WebhookEnvironment } from "@/generated/prisma/client";

export type WebhookDto = {
  id: string;
  projectId: string;
  campaignId: string;
  name: string;
  url: string;
  enabled: boolean;
  environment: WebhookEnvironment;
  /** The secret masked, e.g. `****f00d`; the secret itself is returned only by the create call. */
  secretHint: string;
  createdAt: string;
  updatedAt: string;
};

/** Returned once, by creation: the only time the secret leaves the server. */
export type WebhookCreatedDto = WebhookDto & { secret: string; warning: string };

export const WEBHOOK_SECRET_WARNING =
  "This is the only time the secret is shown: the service keeps it encrypted and shows only its last characters. Store it with your receiver now.";

export const toWebhookDto = (webhook: Webhook): WebhookDto => ({
  id: webhook.id,
  projectId: webhook.projectId,
  campaignId: webhook.campaignId,
  name: webhook.name,
  url: webhook.url,
  enabled: webhook.enabled,
  environment: webhook.environment,
  secretHint: webhook.secretHint,
  createdAt: webhook.createdAt.toISOString(),
  updatedAt: webhook.updatedAt.toISOString(),
});
