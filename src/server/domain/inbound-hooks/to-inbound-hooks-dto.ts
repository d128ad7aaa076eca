import type { InboundHook } from "@/generated/prisma/client";
import type { InboundHooksDto } from "@/lib/schemas/inbound-hooks";
import { decryptSecret } from "@/server/domain/webhooks/webhook-secret";
import { DomainError } from "@/server/domain/errors";
import { hookUrl } from "./hook-urls";

/** The settings as the API answers them: the token and its URLs; of the secrets, only whether each is set. */
export function toInboundHooksDto(hook: InboundHook, origin: string): InboundHooksDto {
  const token = decryptSecret(hook.tokenEncrypted);
  // The encryption key changed without re-encryption: only a new token can be shown.
  if (token === null) throw new DomainError("conflict", "The hook token cannot be read with the configured encryption key; rotate it to issue a new one.");
  return {
    token,
    stripeUrl: hookUrl(origin, token, "stripe"),
    revenueCatUrl: hookUrl(origin, token, "revenuecat"),
    stripeConfigured: hook.stripeSecretEncrypted !== null,
    revenueCatConfigured: hook.revenueCatAuthEncrypted !== null,
    eventNames: eventNamesOf(hook.eventNames),
  };
}

/** The stored mapping, as text to text (anything else in the column is ignored). */
export function eventNamesOf(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}
