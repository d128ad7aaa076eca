import type { Prisma } from "@/generated/prisma/client";
import { conflict, notFound } from "@/server/domain/errors";
import { requireAnotherOwner } from "./lock-owners";
import { memberKeys } from "./member-keys";

/**
 * Removes a member and revokes the API keys they created in the organisation. The caller confirms
 * those keys by id (as the preview listed them): if the member's keys changed since, nothing happens
 * and the caller must look again. The member's access ends with the membership row, on their very next
 * request (each request loads the memberships). The last owner stays, so the organisation always has one.
 */
export async function removeMember(tx: Prisma.TransactionClient, organizationId: string, userId: string, confirmedKeyIds: readonly string[]) {
  const membership = await tx.membership.findUnique({
    where: { userId_organizationId: { userId, organizationId } },
    include: { user: { select: { email: true } } },
  });
  if (!membership) throw notFound("Member");
  if (membership.role === "owner") await requireAnotherOwner(tx, organizationId, "removed");
  // Locked, so a key the member creates meanwhile either is in this list or waits for the removal.
  await tx.$queryRaw`SELECT "id" FROM "ApiKey" WHERE "organizationId" = ${organizationId} AND "createdById" = ${userId} FOR UPDATE`;
  const keys = await memberKeys(tx, organizationId, userId);
  const confirmed = new Set(confirmedKeyIds);
  if (keys.length !== confirmed.size || keys.some((k) => !confirmed.has(k.id))) {
    throw conflict("The member's API keys are not the ones confirmed: review the keys this removal revokes and confirm again.", "revokeApiKeyIds");
  }
  await tx.apiKey.deleteMany({ where: { organizationId, createdById: userId } });
  await tx.membership.delete({ where: { id: membership.id } });
  return { userId, email: membership.user.email, role: membership.role, revokedApiKeys: keys.map((k) => ({ id: k.id, name: k.name })) };
}
