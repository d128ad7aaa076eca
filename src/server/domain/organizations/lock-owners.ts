import type { Prisma } from "@/generated/prisma/client";
import { conflict } from "@/server/domain/errors";

/**
 * Refuses to leave the organisation without an owner. The owners' rows are locked, so two owners
 * removing or demoting each other at once cannot both succeed.
 */
export async function requireAnotherOwner(tx: Prisma.TransactionClient, organizationId: string, what: string) {
  const owners = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Membership" WHERE "organizationId" = ${organizationId} AND "role" = 'owner' FOR UPDATE`;
  if (owners.length <= 1) throw conflict(`The last owner cannot be ${what}.`);
}
