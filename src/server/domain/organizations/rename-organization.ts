import type { Prisma } from "@/generated/prisma/client";

/** The organisation's new name, with the old one for the audit entry. */
export async function renameOrganization(tx: Prisma.TransactionClient, organizationId: string, name: string) {
  const { name: previousName } = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { name: true } });
  const organization = await tx.organization.update({ where: { id: organizationId }, data: { name } });
  return { id: organization.id, name: organization.name, previousName };
}
