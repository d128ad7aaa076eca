import type { MemberRole } from "@/generated/prisma/enums";
import type { Prisma } from "@/generated/prisma/client";
import { cappedKeyRole } from "@/lib/permissions";
import { notFound } from "@/server/domain/errors";
import { lockMembership, requireAnotherOwner } from "./lock-membership";

/**
 * Gives a member another role. Their API keys never act above what the new role may create: an
 * owner key of a member demoted to member becomes a member key, and so on (src/lib/permissions.ts).
 * The membership is locked first, so a key the member creates meanwhile is either lowered here or
 * created after, under the new role (lockMembership).
 */
export async function changeMemberRole(tx: Prisma.TransactionClient, organizationId: string, userId: string, role: MemberRole, ownerId: string) {
  const membership = await lockMembership(tx, organizationId, userId, ownerId);
  if (!membership) throw notFound("Member");
  const { email, role: from } = membership;
  if (from === role) return { userId, email, from, to: role, cappedApiKeys: [] as string[] };
  requireAnotherOwner(membership, "demoted");
  await tx.membership.update({ where: { id: membership.id }, data: { role } });
  const keys = await tx.apiKey.findMany({ where: { organizationId, createdById: userId }, select: { id: true, role: true } });
  const capped = keys.filter((k) => cappedKeyRole(k.role, role) !== k.role);
  for (const k of capped) await tx.apiKey.update({ where: { id: k.id }, data: { role: cappedKeyRole(k.role, role) } });
  return { userId, email, from, to: role, cappedApiKeys: capped.map((k) => k.id) };
}
