import type { ApiKey } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { hashToken } from "@/server/domain/tokens";
import { API_KEY_PREFIX } from "./to-api-key-dto";
import { PREPARED } from "@/server/db/prepared-statements";

/** How stale `lastUsedAt` may get before a request writes it again: reads stay write-free. */
const LAST_USED_RESOLUTION_MS = 60_000;

type Row = Pick<ApiKey, "id" | "name" | "organizationId" | "role" | "expiresAt" | "lastUsedAt">;

/**
 * The key's organisation, role and name, or null for an unknown, deleted (revoked) or expired key.
 * Every REST request starts here, so it is one hand-written statement (Prisma's per-query CPU was a
 * measurable share of a GET) and deliberately not cached: a deleted key stops working at once.
 */
export async function authenticateApiKey(db: Db, key: string, now = new Date()) {
  if (!key.startsWith(API_KEY_PREFIX)) return null;
  const [record] = await db.$queryRaw<Row[]>`${PREPARED}
    SELECT "id", "name", "organizationId", "role"::text AS "role", "expiresAt", "lastUsedAt"
    FROM "ApiKey" WHERE "keyHash" = ${hashToken(key)}`;
  if (!record || (record.expiresAt && record.expiresAt <= now)) return null;
  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiKey.updateMany({ where: { id: record.id }, data: { lastUsedAt: now } });
  }
  return { apiKeyId: record.id, name: record.name, organizationId: record.organizationId, role: record.role };
}
