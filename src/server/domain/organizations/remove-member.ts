import type { Prisma } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";
import { lockMembership, requireAnotherOwner } from "./lock-membership";
import { memberKeys } from "./member-keys";

/**
 * Removes a member and revokes every API key they created in the organisation, including one created
 * while the removal runs: the membership is locked first (lockMembership), so such a key committed
 * before the lock and is revoked here, or its creation waits and then finds the member gone. A removal
 * is never refused for the keys: `confirmedKeyIds` are the keys the owner was shown, and the answer
 * names the keys revoked beyond them (created since the confirmation was shown), for the owner to see
 * and the audit log to keep. The member's access ends with the membership row, on their very next
 * request (each request loads the memberships). The last owner stays, so the organisation always has one.
 */
export async function removeMember(tx: Prisma.TransactionClient, organizationId: string, userId: string, confirmedKeyIds: readonly string[], ownerId: string) {
  const membership = await lockMembership(tx, organizationId, userId, ownerId);
  if (!membership) throw notFound("Member");
  requireAnotherOwner(membership, "removed");
  const keys = await memberKeys(tx, organizationId, userId);
  await tx.apiKey.deleteMany({ where: { organizationId, createdById: userId } });
  await tx.membership.delete({ where: { id: membership.id } });
  const confirmed = new Set(confirmedKeyIds);
  return {
    userId,
    email: membership.email,
    role: membership.role,
    revokedApiKeys: keys.map((k) => ({ id: k.id, name: k.name, confirmed: confirmed.has(k.id) })),
  };
}
