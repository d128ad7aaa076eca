import type { Prisma } from "@/generated/prisma/client";
import { overlapEnd } from "@/lib/schemas/rotation";
import { DomainError, notFound } from "@/server/domain/errors";
import { createApiKey } from "./create-api-key";

/**
 * Rolls a key: a new key with the same name, role and expiry, made by the caller (shown once), and
 * the old one ends, at once (deleted, as a revocation) or when the overlap ends (its expiry brought
 * forward, never pushed back), so the systems using it can switch without a gap. Who may roll a key
 * is who may delete it; the new key's role must be one the caller may grant.
 */
export async function rollApiKey(
  tx: Prisma.TransactionClient,
  organizationId: string,
  id: string,
  overlapHours: number,
  caller: { userId: string; email: string; onlyOwnKeys: boolean },
  now = new Date(),
) {
  const old = await tx.apiKey.findFirst({ where: { id, organizationId } });
  if (!old) throw notFound("API key");
  if (caller.onlyOwnKeys && old.createdById !== caller.userId) throw new DomainError("forbidden", "Only an owner can roll an API key someone else created.");
  if (old.expiresAt && old.expiresAt <= now) throw new DomainError("invalid", "The key has expired: create a new one instead.", [{ field: "id", rule: "expired", message: "the key has expired" }]);
  const created = await createApiKey(tx, organizationId, { name: old.name, role: old.role, expiresAt: old.expiresAt }, { userId: caller.userId, email: caller.email });
  const until = overlapEnd(overlapHours, now);
  if (until) {
    const ends = old.expiresAt && old.expiresAt < until ? old.expiresAt : until;
    await tx.apiKey.update({ where: { id: old.id }, data: { expiresAt: ends } });
    return { ...created, rolledKeyId: old.id, previousKeyExpiresAt: ends.toISOString() };
  }
  await tx.apiKey.delete({ where: { id: old.id } });
  return { ...created, rolledKeyId: old.id, previousKeyExpiresAt: null };
}
