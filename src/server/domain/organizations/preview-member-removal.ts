import type { Db } from "@/server/db/client";
import { notFound } from "@/server/domain/errors";
import { memberKeys } from "./member-keys";

/** What removing a member would do: the member, and the API keys of theirs it would revoke. */
export async function previewMemberRemoval(db: Db, organizationId: string, userId: string) {
  const membership = await db.membership.findUnique({
    where: { userId_organizationId: { userId, organizationId } },
    include: { user: { select: { email: true } } },
  });
  if (!membership) throw notFound("Member");
  return { userId, email: membership.user.email, role: membership.role, apiKeys: await memberKeys(db, organizationId, userId) };
}
