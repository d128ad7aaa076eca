import type { MemberRole } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { isUniqueViolation } from "@/server/domain/db-errors";
import { conflict, invalidField } from "@/server/domain/errors";

/** Adds an existing account, found by e-mail, as a member or owner. */
export async function addMember(db: Db, organizationId: string, email: string, role: MemberRole) {
  const user = await db.user.findUnique({ where: { email } });
  if (!user) throw invalidField("email", "exists", "No account uses this e-mail. Ask them to sign up first.");
  try {
    await db.membership.create({ data: { userId: user.id, organizationId, role } });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("This account is already a member.");
    throw error;
  }
}
