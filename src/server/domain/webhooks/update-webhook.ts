import type { Prisma } from "@/generated/prisma/client";
import { generateWebhookSecret } from "@/lib/webhook-secrets";
import type { UrlRules } from "@/server/config";
import { invalidField } from "@/server/domain/errors";
import { getOwnedWebhook } from "./get-owned-webhook";
import { webhookColumns, type UpdateWebhookInput } from "./webhook-write";
import { toWebhookDto, WEBHOOK_SECRET_WARNING, type WebhookDto } from "./to-webhook-dto";
import { validateWebhookUrl } from "./webhook-url";

/** What an update did beyond its fields, for its audit entry; the secret itself only when generated, for the answer. */
export type WebhookUpdated = WebhookDto & {
  secret?: string;
  warning?: string;
  urlChanged: { from: string; to: string } | null;
  secretReplaced: "given" | "generated" | null;
};

export const NEW_URL_NEEDS_SECRET =
  "A new url needs a new secret in the same request: send `secret`, or `generateSecret: true` for a generated one (returned once, in this answer). The current secret never follows the URL.";
import { NO_HEALTH, webhookHealth } from "./webhook-health-figures";

/**
 * Changes the fields given (url, name, secret, enabled, environment) and leaves the others. Already
 * queued deliveries follow the new state: they are sent to the new URL with the new secret, and not
 * at all once the webhook is disabled. Enabling it is the one click that undoes the service's disabling:
 * the reason and the failing streak are cleared, so the 5-day rule counts afresh from the next failure.
 * Disabling it by hand records no reason. A new URL needs a new secret in the same request, given or
 * generated: the current secret is meant for the current receiver only, and whoever may edit a webhook
 * must not be able to send it to a receiver of their own (then a test event would hand it over).
 */
export async function updateWebhook(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  webhookId: string,
  { generateSecret, ...input }: UpdateWebhookInput & { generateSecret?: boolean },
  rules: UrlRules,
): Promise<WebhookUpdated> {
  const before = await getOwnedWebhook(db, organizationId, projectId, webhookId);
  if (generateSecret && input.secret !== undefined) throw invalidField("generateSecret", "one_secret", "Send either `secret` or `generateSecret: true`, not both.");
  const url = input.url === undefined ? undefined : await validateWebhookUrl(input.url, rules);
  const urlChanged = url !== undefined && url !== before.url ? { from: before.url, to: url } : null;
  if (urlChanged && input.secret === undefined && !generateSecret) throw invalidField("secret", "required_with_new_url", NEW_URL_NEEDS_SECRET);
  const generated = generateSecret ? generateWebhookSecret() : undefined;
  // The URL was checked above (once: a check may resolve its host).
  const data = { ...(await webhookColumns({ ...input, url: undefined, secret: generated ?? input.secret }, rules)), ...(url === undefined ? {} : { url }) };
  const switched =
    input.enabled === true && !before.enabled
      ? { disabledReason: null, disabledAt: null, failingSince: null }
      : input.enabled === false && before.enabled
        ? { disabledReason: null, disabledAt: new Date() }
        : {};
  const webhook = await db.webhook.update({ where: { id: webhookId }, data: { ...data, ...switched } });
  const dto = toWebhookDto(webhook, (await webhookHealth(db, [webhook.id])).get(webhook.id) ?? NO_HEALTH);
  const secretReplaced = generated ? "generated" : input.secret !== undefined ? "given" : null;
  return { ...dto, ...(generated ? { secret: generated, warning: WEBHOOK_SECRET_WARNING } : {}), urlChanged, secretReplaced };
}
