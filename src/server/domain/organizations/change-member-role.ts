import type { MemberRole } from "@/generated/prisma/enums";
import type { Prisma } from "@/generated/prisma/client";
import { cappedKeyRole } from "@/lib/permissions";
import { notFound } from "@/server/domain/errors";
import { requireAnotherOwner } from "./lock-owners";

/**
 * Gives a member another role. Their API keys never act above what the new role may create: an
 * owner key of a member demoted to member becomes a member key, and so on (src/lib/permissions.ts).
 */
export async function changeMemberRole(tx: Prisma.TransactionClient, organizationId: string, userId: string, role: MemberRole) {
  const membership = await tx.membership.findUnique({
    where: { userId_organizationId: { userId, organizationId } },
    include: { user: { select: { email: true } } },
  });
  if (!membership) throw notFound("Member");
  const from = membership.role;
  if (from === role) return { userId, email: membership.user.email, from, to: role, cappedApiKeys: [] as string[] };
  if (from === "owner") await requireAnotherOwner(tx, organizationId, "demoted");
  await tx.membership.update({ where: { id: membership.id }, data: { role } });
  const keys = await tx.apiKey.findMany({ where: { organizationId, createdById: userId }, select: { id: true, role: true } });
  const capped = keys.filter((k) => cappedKeyRole(k.role, role) !== k.role);
  for (const k of capped) await tx.apiKey.update({ where: { id: k.id }, data: { role: cappedKeyRole(k.role, role) } });
  return { userId, email: membership.user.email, from, to: role, cappedApiKeys: capped.map((k) => k.id) };
}
