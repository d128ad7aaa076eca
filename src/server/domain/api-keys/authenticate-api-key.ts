import type { ApiKey } from "@/generated/prisma/client";
import type { MemberRole } from "@/generated/prisma/enums";
import { cappedKeyRole } from "@/lib/permissions";
import type { Db } from "@/server/db/client";
import type { CredentialCache } from "@/server/db/credential-cache";
import { hashToken } from "@/server/domain/tokens";
import { API_KEY_PREFIX } from "./to-api-key-dto";
import { prepared } from "@/server/db/prepared-statements";

/** How stale `lastUsedAt` may get before a request writes it again: reads stay write-free. */
const LAST_USED_RESOLUTION_MS = 60_000;

type Row = Pick<ApiKey, "id" | "name" | "organizationId" | "role" | "expiresAt" | "lastUsedAt"> & { creatorRole: MemberRole | null };

/**
 * The key's organisation, role and name, or null for an unknown, deleted (revoked) or expired key.
 * A key a member created works only while they are a member, and never above what their role may
 * create: removing or demoting a member revokes or lowers their keys in the same transaction, and this
 * check stands behind that (a membership change clears the cache like a key change).
 * Every REST request starts here: one hand-written statement (Prisma's per-query CPU was a measurable
 * share of a GET), or none while `credentials` holds the key (a deleted or changed key is dropped
 * from every instance's cache when the change commits; expiry is checked here on every call).
 */
export async function authenticateApiKey(db: Db, key: string, credentials: CredentialCache, now = new Date()) {
  if (!key.startsWith(API_KEY_PREFIX)) return null;
  const keyHash = hashToken(key);
  const record = await credentials.read(`apiKey:${keyHash}`, async () => {
    const [row] = await prepared<Row>(db)`
      SELECT k."id", k."name", k."organizationId", k."role"::text AS "role", k."expiresAt", k."lastUsedAt", m."role"::text AS "creatorRole"
      FROM "ApiKey" k LEFT JOIN "Membership" m ON m."userId" = k."createdById" AND m."organizationId" = k."organizationId"
      WHERE k."keyHash" = ${keyHash} AND (k."createdById" IS NULL OR m."id" IS NOT NULL)`;
    return row ?? null;
  });
  if (!record || (record.expiresAt && record.expiresAt <= now)) return null;
  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiKey.updateMany({ where: { id: record.id }, data: { lastUsedAt: now } });
    // The cached record too, or every call would write again until the entry expires.
    record.lastUsedAt = now;
  }
  const role = record.creatorRole ? cappedKeyRole(record.role, record.creatorRole) : record.role;
  return { apiKeyId: record.id, name: record.name, organizationId: record.organizationId, role };
}
