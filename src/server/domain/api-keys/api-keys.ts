import type { Db } from "@/server/db/client";
import type { ApiKey } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";
import { hashToken, newToken } from "@/server/domain/tokens";

const KEY_PREFIX = "rl_";
/** How stale `lastUsedAt` may get before a request writes it again: reads stay write-free. */
const LAST_USED_RESOLUTION_MS = 60_000;

export const API_KEY_WARNING =
  "Store this key now: it is shown only once. Anyone with it can act for your organisation.";

const mask = (k: ApiKey) => `${k.keyPrefix}${"•".repeat(8)}`;

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

export async function createApiKey(db: Db, organizationId: string, input: { name: string; expiresAt?: Date | null }) {
  const key = newToken(KEY_PREFIX);
  const record = await db.apiKey.create({
    data: {
      organizationId,
      name: input.name.trim(),
      keyHash: hashToken(key),
      keyPrefix: key.slice(0, KEY_PREFIX.length + 4),
      expiresAt: input.expiresAt ?? null,
    },
  });
  return { ...toApiKeyDto(record, key), warning: API_KEY_WARNING };
}

export async function listApiKeys(db: Db, organizationId: string) {
  const organization = await db.organization.findUniqueOrThrow({
    where: { id: organizationId },
    include: { apiKeys: { orderBy: { createdAt: "desc" } } },
  });
  return {
    clientId: organization.clientId,
    clientUniqueId: organization.id,
    keys: organization.apiKeys.map((k) => toApiKeyDto(k)),
  };
}

export async function deleteApiKey(db: Db, organizationId: string, id: string) {
  const { count } = await db.apiKey.deleteMany({ where: { id, organizationId } });
  if (!count) throw notFound("API key");
  return { message: "The API key was deleted.", deletedKeyId: id, deletedAt: new Date().toISOString() };
}

/** The key's organisation, or null for an unknown or expired key. */
export async function authenticateApiKey(db: Db, key: string, now = new Date()) {
  if (!key.startsWith(KEY_PREFIX)) return null;
  const record = await db.apiKey.findUnique({ where: { keyHash: hashToken(key) } });
  if (!record || (record.expiresAt && record.expiresAt <= now)) return null;
  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiKey.updateMany({ where: { id: record.id }, data: { lastUsedAt: now } });
  }
  return { apiKeyId: record.id, organizationId: record.organizationId };
}
