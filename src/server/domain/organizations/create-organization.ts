import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { randomAlphanumeric } from "@/server/domain/tokens";

/** A new organisation with `userId` as its owner. */
export async function createOrganization(db: Db, userId: string, name: string) {
  const organization = await db.$transaction((tx) => insertOrganization(tx, userId, name));
  return { id: organization.id, name: organization.name };
}

/** The organisation and its owner's membership, inside the caller's transaction (sign-up's). */
export async function insertOrganization(tx: Prisma.TransactionClient, userId: string, name: string) {
  const organization = await tx.organization.create({ data: { name, clientId: "cl_" + randomAlphanumeric(16) } });
  await tx.membership.create({ data: { userId, organizationId: organization.id, role: "owner" } });
  return organization;
}
