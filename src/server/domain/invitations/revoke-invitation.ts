import type { Prisma } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";
import { pendingWhere } from "./invitation-state";

/** Withdraws a pending invitation: its link stops working. */
export async function revokeInvitation(tx: Prisma.TransactionClient, organizationId: string, invitationId: string, now = new Date()) {
  const invitation = await tx.invitation.findFirst({ where: { id: invitationId, organizationId, ...pendingWhere(now) } });
  if (!invitation) throw notFound("Pending invitation");
  await tx.invitation.update({ where: { id: invitation.id }, data: { revokedAt: now } });
  return { id: invitation.id, email: invitation.email, role: invitation.role };
}
