import type { Db } from "@/server/db/client";

export async function renameOrganization(db: Db, organizationId: string, name: string) {
  const organization = await db.organization.update({ where: { id: organizationId }, data: { name } });
  return { id: organization.id, name: organization.name };
}
