import type { Prisma } from "@/generated/prisma/client";
import type { UrlRules } from "@/server/config";
import { getOwnedWebhook } from "./get-owned-webhook";
import { webhookColumns, type UpdateWebhookInput } from "./webhook-write";
import { toWebhookDto, type WebhookDto } from "./to-webhook-dto";
import { NO_HEALTH, webhookHealth } from "./webhook-health-figures";

/**
 * Changes the fields given (url, name, secret, enabled, environment) and leaves the others. Already
 * queued deliveries follow the new state: they are sent to the new URL with the new secret, and not
 * at all once the webhook is disabled. Enabling it is the one click that undoes the service's disabling:
 * the reason and the failing streak are cleared, so the 5-day rule counts afresh from the next failure.
 * Disabling it by hand records no reason.
 */
export async function updateWebhook(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  webhookId: string,
  input: UpdateWebhookInput,
  rules: UrlRules,
): Promise<WebhookDto> {
  const before = await getOwnedWebhook(db, organizationId, projectId, webhookId);
  const data = await webhookColumns(input, rules);
  const switched =
    input.enabled === true && !before.enabled
      ? { disabledReason: null, disabledAt: null, failingSince: null }
      : input.enabled === false && before.enabled
        ? { disabledReason: null, disabledAt: new Date() }
        : {};
  const webhook = await db.webhook.update({ where: { id: webhookId }, data: { ...data, ...switched } });
  return toWebhookDto(webhook, (await webhookHealth(db, [webhook.id])).get(webhook.id) ?? NO_HEALTH);
}
