import type { Webhook, WebhookEnvironment } from "@/generated/prisma/client";
import type { WebhookDisabledReason } from "@/lib/schemas/webhooks";
import { DEFAULT_WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/lib/schemas/webhook-events";
import { NO_HEALTH, type WebhookHealth } from "./webhook-health-figures";

export type WebhookDto = {
  id: string;
  projectId: string;
  campaignId: string;
  name: string;
  url: string;
  enabled: boolean;
  environment: WebhookEnvironment;
  /** The event types it subscribes to. */
  events: WebhookEventType[];
  /** The secret masked, e.g. `****f00d`; the secret itself is returned only by the create call. */
  secretHint: string;
  /** Why the service disabled it by itself (410 Gone, or 5 days all failing); null otherwise. */
  disabledReason: WebhookDisabledReason | null;
  disabledAt: string | null;
  /** Since when every attempt has failed; null while it succeeds. */
  failingSince: string | null;
  autoRecover: boolean;
  /** Until when deliveries are also signed with the secret before the last rotation; null when no overlap runs. */
  previousSecretExpiresAt: string | null;
  health: WebhookHealth;
  createdAt: string;
  updatedAt: string;
};

/** Returned once, by creation: the only time the secret leaves the server. */
export type WebhookCreatedDto = WebhookDto & { secret: string; warning: string };

export const WEBHOOK_SECRET_WARNING =
  "This is the only time the secret is shown: the service keeps it encrypted and shows only its last characters. Store it with your receiver now.";

export const toWebhookDto = (webhook: Webhook, health: WebhookHealth = NO_HEALTH): WebhookDto => ({
  id: webhook.id,
  projectId: webhook.projectId,
  campaignId: webhook.campaignId,
  name: webhook.name,
  url: webhook.url,
  enabled: webhook.enabled,
  environment: webhook.environment,
  events: subscribedEvents(webhook.events),
  secretHint: webhook.secretHint,
  disabledReason: webhook.enabled ? null : (webhook.disabledReason as WebhookDisabledReason | null),
  disabledAt: webhook.enabled ? null : (webhook.disabledAt?.toISOString() ?? null),
  failingSince: webhook.failingSince?.toISOString() ?? null,
  autoRecover: webhook.autoRecover,
  previousSecretExpiresAt: webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > new Date() ? webhook.previousSecretExpiresAt.toISOString() : null,
  health,
  createdAt: webhook.createdAt.toISOString(),
  updatedAt: webhook.updatedAt.toISOString(),
});

/** The stored subscriptions in the catalogue's order (a type no longer known is left out). */
export const subscribedEvents = (stored: string[] | null): WebhookEventType[] => {
  const types = WEBHOOK_EVENT_TYPES.filter((type) => stored?.includes(type));
  return stored === null ? [...DEFAULT_WEBHOOK_EVENTS] : types;
};
