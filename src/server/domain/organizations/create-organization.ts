import type { Prisma } from "@/generated/prisma/client";
import { randomAlphanumeric } from "@/server/domain/tokens";

/** A new organisation with `userId` as its owner. */
export async function createOrganization(tx: Prisma.TransactionClient, userId: string, name: string) {
  const organization = await tx.organization.create({
    data: { name: name.trim(), clientId: "cl_" + randomAlphanumeric(16) },
  });
  await tx.membership.create({ data: { userId, organizationId: organization.id, role: "owner" } });
  return organization;
}
