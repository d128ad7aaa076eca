import type { Db } from "@/server/db/client";

/** The user's organisations, oldest membership first (the default active one). */
export async function listMyOrganizations(db: Db, userId: string) {
  const memberships = await db.membership.findMany({
    where: { userId },
    include: { organization: true },
    orderBy: { createdAt: "asc" },
  });
  return memberships.map((m) => ({ id: m.organization.id, name: m.organization.name, role: m.role }));
}
