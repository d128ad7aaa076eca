import type { Db } from "@/server/db/client";

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
