import type { Db } from "@/server/db/client";
import { hashToken } from "@/server/domain/tokens";
import { invitationState } from "./invitation-state";

/**
 * What the invitation page shows to whoever holds the link: the organisation, the role, who invited,
 * the address, and whether it can still be accepted. Null for a token that names no invitation.
 */
export async function findInvitation(db: Db, token: string, now = new Date()) {
  const i = await db.invitation.findUnique({
    where: { tokenHash: hashToken(token) },
    include: { organization: { select: { name: true } }, invitedBy: { select: { email: true, name: true } } },
  });
  if (!i) return null;
  return {
    organizationName: i.organization.name,
    email: i.email,
    role: i.role,
    invitedBy: i.invitedBy ? i.invitedBy.name || i.invitedBy.email : null,
    expiresAt: i.expiresAt.toISOString(),
    state: invitationState(i, now),
  };
}
