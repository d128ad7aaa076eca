import type { MemberRole } from "@/generated/prisma/enums";
import type { Prisma } from "@/generated/prisma/client";
import { conflict, DomainError } from "@/server/domain/errors";

export type LockedMembership = { id: string; role: MemberRole; email: string; owners: number };

/**
 * Locks a member's membership row, and every owner's, before removing the member or changing their
 * role: membership is what serialises those changes with the member's own API key creation, which
 * reads the member's row FOR SHARE (createApiKey). So a key created meanwhile either committed before
 * this lock (and the removal or role change sees it) or waits, then reads the member gone or at the new
 * role. The owners' rows are locked too, in one statement and in id order (so two owners removing or
 * demoting each other at once wait for each other rather than deadlock): the last owner stays, and
 * the acting owner (`ownerId`) must still be one once the locks are held (not only when the request
 * began: an owner demoted or removed meanwhile changes nothing). null: no such member.
 */
export async function lockMembership(tx: Prisma.TransactionClient, organizationId: string, userId: string, ownerId: string): Promise<LockedMembership | null> {
  const rows = await tx.$queryRaw<{ id: string; userId: string; role: MemberRole }[]>`
    SELECT "id", "userId", "role"::text AS "role" FROM "Membership"
    WHERE "organizationId" = ${organizationId} AND ("userId" = ${userId} OR "role" = 'owner')
    ORDER BY "id" FOR UPDATE`;
  if (!rows.some((r) => r.userId === ownerId && r.role === "owner")) throw new DomainError("forbidden", "You are no longer an owner of this organisation.");
  const member = rows.find((r) => r.userId === userId);
  if (!member) return null;
  const { email } = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
  return { id: member.id, role: member.role, email, owners: rows.filter((r) => r.role === "owner").length };
}

/** Refuses to leave the organisation without an owner (the owners' rows locked by lockMembership). */
export function requireAnotherOwner(membership: LockedMembership, what: string): void {
  if (membership.role === "owner" && membership.owners <= 1) throw conflict(`The last owner cannot be ${what}.`);
}
