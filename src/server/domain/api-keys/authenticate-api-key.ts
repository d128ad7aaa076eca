import type { ApiKey } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import type { CredentialCache } from "@/server/db/credential-cache";
import { hashToken } from "@/server/domain/tokens";
import { API_KEY_PREFIX } from "./to-api-key-dto";
import { prepared } from "@/server/db/prepared-statements";

/** How stale `lastUsedAt` may get before a request writes it again: reads stay write-free. */
const LAST_USED_RESOLUTION_MS = 60_000;

type Row = Pick<ApiKey, "id" | "name" | "organizationId" | "role" | "expiresAt" | "lastUsedAt">;

/**
 * The key's organisation, role and name, or null for an unknown, deleted (revoked) or expired key.
 * Every REST request starts here: one hand-written statement (Prisma's per-query CPU was a measurable
 * share of a GET), or none while `credentials` holds the key (a deleted or changed key is dropped
 * from every instance's cache when the change commits; expiry is checked here on every call).
 */
export async function authenticateApiKey(db: Db, key: string, credentials: CredentialCache, now = new Date()) {
  if (!key.startsWith(API_KEY_PREFIX)) return null;
  const keyHash = hashToken(key);
  const record = await credentials.read(`apiKey:${keyHash}`, async () => {
    const [row] = await prepared<Row>(db)`
      SELECT "id", "name", "organizationId", "role"::text AS "role", "expiresAt", "lastUsedAt"
      FROM "ApiKey" WHERE "keyHash" = ${keyHash}`;
    return row ?? null;
  });
  if (!record || (record.expiresAt && record.expiresAt <= now)) return null;
  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiKey.updateMany({ where: { id: record.id }, data: { lastUsedAt: now } });
    // The cached record too, or every call would write again until the entry expires.
    record.lastUsedAt = now;
  }
  return { apiKeyId: record.id, name: record.name, organizationId: record.organizationId, role: record.role };
}
