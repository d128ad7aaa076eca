import type { WebhookEnvironment } from "@/generated/prisma/client";
import type { WebhookEventType } from "@/lib/schemas/webhook-events";
import type { UrlRules } from "@/server/config";
import { encryptSecret, secretHint } from "./webhook-secret";
import { validateWebhookUrl } from "./webhook-url";

export type CreateWebhookInput = {
  name: string;
  url: string;
  /** Omitted on creation: the service generates a Standard Webhooks secret. */
  secret?: string;
  enabled: boolean;
  environment: WebhookEnvironment;
  /** The event types it receives; default ["reward.granted"]. */
  events?: WebhookEventType[];
  autoRecover?: boolean;
};
export type UpdateWebhookInput = Partial<CreateWebhookInput>;

/**
 * The columns an input sets; absent fields stay unchanged. The URL is checked against the deployment's
 * rules here, the one thing the schemas cannot know; the secret only ever leaves this module encrypted.
 */
export async function webhookColumns<T extends UpdateWebhookInput>(input: T, rules: UrlRules) {
  const { secret, url, ...rest } = input;
  return {
    ...rest,
    ...((url === undefined ? {} : { url: await validateWebhookUrl(url, rules) }) as T extends { url: string } ? { url: string } : { url?: string }),
    ...((secret === undefined ? {} : { secretEncrypted: encryptSecret(secret), secretHint: secretHint(secret) }) as T extends { secret: string }
      ? { secretEncrypted: string; secretHint: string }
      : { secretEncrypted?: string; secretHint?: string }),
  };
}
