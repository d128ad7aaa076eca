import type { Db } from "@/server/db/client";
import { conflict, notFound } from "@/server/domain/errors";

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
