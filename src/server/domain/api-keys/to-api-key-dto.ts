import type { ApiKey } from "@/generated/prisma/client";

/** Every API key starts with this, so a key can be recognised (and refused cheaply) by its look. */
export const API_KEY_PREFIX = "rl_";

export const API_KEY_WARNING = "Store this key now: it is shown only once. Anyone with it can act for your organisation.";

const mask = (k: ApiKey) => `${k.keyPrefix}${"•".repeat(8)}`;

/** The spec's APIKeyDto; `key` is masked unless the caller has the full key (right after creation). */
export function toApiKeyDto(k: ApiKey, key = mask(k)) {
  return {
    id: k.id,
    name: k.name,
    key,
    createdAt: k.createdAt.toISOString(),
    expiresAt: k.expiresAt?.toISOString() ?? null,
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  };
}
