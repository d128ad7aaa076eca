import type { Db } from "@/server/db/client";
import { conflict, invalidField, notFound } from "@/server/domain/errors";
import { isUniqueViolation } from "@/server/domain/db-errors";

/** The user's organisations, oldest membership first (the default active one). */
export async function listMyOrganizations(db: Db, userId: string) {
  const memberships = await db.membership.findMany({
    where: { userId },
    include: { organization: true },
    orderBy: { createdAt: "asc" },
  });
  return memberships.map((m) => ({ id: m.organization.id, name: m.organization.name, role: m.role }));
}

export async function listMembers(db: Db, organizationId: string) {
  const memberships = await db.membership.findMany({
    where: { organizationId },
    include: { user: true },
    orderBy: { createdAt: "asc" },
  });
  return memberships.map((m) => ({
    userId: m.userId,
    email: m.user.email,
    name: m.user.name,
    role: m.role,
    joinedAt: m.createdAt.toISOString(),
  }));
}

/** Adds an existing account, found by e-mail, as a member or owner. */
export async function addMember(db: Db, organizationId: string, email: string, role: "owner" | "member") {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!user) throw invalidField("email", "exists", "No account uses this e-mail. Ask them to sign up first.");
  try {
    await db.membership.create({ data: { userId: user.id, organizationId, role } });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("This account is already a member.");
    throw error;
  }
}

/** Removes a member; the last owner stays, so an organisation is never orphaned. */
export async function removeMember(db: Db, organizationId: string, userId: string) {
  await db.$transaction(async (tx) => {
    const membership = await tx.membership.findUnique({ where: { userId_organizationId: { userId, organizationId } } });
    if (!membership) throw notFound("Member");
    if (membership.role === "owner") {
      // Locked, so two owners removing each other at once cannot leave the organisation without one.
      const owners = await tx.$queryRaw<{ id: string }[]>`
        SELECT "id" FROM "Membership" WHERE "organizationId" = ${organizationId} AND "role" = 'owner' FOR UPDATE`;
      if (owners.length <= 1) throw conflict("The last owner cannot be removed.");
    }
    await tx.membership.delete({ where: { id: membership.id } });
  });
}
