import type { MemberRole } from "@/generated/prisma/enums";
import type { Prisma } from "@/generated/prisma/client";
import { conflict } from "@/server/domain/errors";
import { hashToken, newToken } from "@/server/domain/tokens";
import { INVITATION_LIFETIME_MS, pendingWhere } from "./invitation-state";

/**
 * Invites an address with a role. Inviting an address again replaces its pending invitation (the
 * earlier link stops working): that is how an owner resends one. The token exists only in the result
 * (for the e-mail); the row keeps its hash.
 */
export async function createInvitation(
  tx: Prisma.TransactionClient,
  input: { organizationId: string; invitedById: string; email: string; role: MemberRole },
  now = new Date(),
) {
  const member = await tx.membership.findFirst({ where: { organizationId: input.organizationId, user: { email: input.email } }, select: { id: true } });
  if (member) throw conflict("This address already belongs to a member of the organisation.", "email");
  const replaced = await tx.invitation.updateMany({
    where: { organizationId: input.organizationId, email: input.email, ...pendingWhere(now) },
    data: { revokedAt: now },
  });
  const token = newToken("inv_");
  const invitation = await tx.invitation.create({
    data: {
      organizationId: input.organizationId,
      email: input.email,
      role: input.role,
      invitedById: input.invitedById,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
    },
    include: { organization: { select: { name: true } }, invitedBy: { select: { email: true, name: true } } },
  });
  return { invitation, token, replaced: replaced.count };
}
