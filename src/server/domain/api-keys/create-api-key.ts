import type { Db } from "@/server/db/client";
import { hashToken, newToken } from "@/server/domain/tokens";
import { API_KEY_PREFIX, API_KEY_WARNING, toApiKeyDto } from "./to-api-key-dto";

/** A new key, stored as a hash; the full key is in this result only. */
export async function createApiKey(db: Db, organizationId: string, input: { name: string; expiresAt?: Date | null }) {
  const key = newToken(API_KEY_PREFIX);
  const record = await db.apiKey.create({
    data: {
      organizationId,
      name: input.name,
      keyHash: hashToken(key),
      keyPrefix: key.slice(0, API_KEY_PREFIX.length + 4),
      expiresAt: input.expiresAt ?? null,
    },
  });
  return { ...toApiKeyDto(record, key), warning: API_KEY_WARNING };
}
