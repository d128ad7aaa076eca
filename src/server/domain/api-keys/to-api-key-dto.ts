import type { ApiKey } from "@/generated/prisma/client";

/** Every API key starts with this, so a key can be recognised (and refused cheaply) by its look. */
export const API_KEY_PREFIX = "rl_";

export const API_KEY_WARNING = "Store this key now: it is shown only once. Anyone with it can act for your organisation.";

const mask = (k: ApiKey) => `${k.keyPrefix}${"•".repeat(8)}`;

type WithCreator = ApiKey & { createdBy?: { email: string } | null };

/**
 * The spec's APIKeyDto, plus the key's role and who created it; `key` is masked unless the caller
 * has the full key (right after creation).
 */
export function toApiKeyDto(k: WithCreator, key = mask(k)) {
  return {
    id: k.id,
    name: k.name,
    key,
    role: k.role,
    createdById: k.createdById,
    /** The creator's e-mail; null for keys made before creators were recorded (or by a deleted account). */
    createdBy: k.createdBy?.email ?? null,
    createdAt: k.createdAt.toISOString(),
    expiresAt: k.expiresAt?.toISOString() ?? null,
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  };
}
