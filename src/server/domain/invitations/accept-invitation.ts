import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { recordAudit, type RequestClient } from "@/server/domain/audit/record-audit";
import { DomainError, conflict, notFound } from "@/server/domain/errors";
import { hashToken } from "@/server/domain/tokens";
import { invitationState } from "./invitation-state";

const REFUSALS = {
  accepted: "This invitation was already used.",
  revoked: "This invitation was withdrawn. Ask the organisation's owner for a new one.",
  expired: "This invitation has expired. Ask the organisation's owner for a new one.",
} as const;

/** The pending invitation with this token, locked so two acceptances cannot both win; else a 404 or 409. */
export async function lockPendingInvitation(tx: Prisma.TransactionClient, token: string, now: Date) {
  const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Invitation" WHERE "tokenHash" = ${hashToken(token)} FOR UPDATE`;
  if (!locked) throw notFound("Invitation");
  const invitation = await tx.invitation.findUniqueOrThrow({ where: { id: locked.id }, include: { organization: { select: { name: true } } } });
  const state = invitationState(invitation, now);
  if (state !== "pending") throw conflict(REFUSALS[state]);
  return invitation;
}

type PendingInvitation = Awaited<ReturnType<typeof lockPendingInvitation>>;

/** Makes the user a member with the invited role, uses the invitation up and audits it (in the caller's transaction). */
export async function joinByInvitation(
  tx: Prisma.TransactionClient,
  invitation: PendingInvitation,
  user: { id: string; email: string },
  client: RequestClient,
  now: Date,
) {
  const existing = await tx.membership.findUnique({ where: { userId_organizationId: { userId: user.id, organizationId: invitation.organizationId } } });
  if (existing) throw conflict("You are already a member of this organisation.");
  await tx.membership.create({ data: { userId: user.id, organizationId: invitation.organizationId, role: invitation.role, createdAt: now } });
  await tx.invitation.update({ where: { id: invitation.id }, data: { acceptedAt: now, acceptedById: user.id } });
  await recordAudit(tx, invitation.organizationId, { type: "user", id: user.id, label: user.email, userAgent: client.userAgent, ipAddress: client.ipAddress }, {
    action: "invitation.accept",
    target: { type: "member", id: user.id, label: user.email },
    details: { role: invitation.role, invitationId: invitation.id },
  });
  return { organizationId: invitation.organizationId, organizationName: invitation.organization.name, role: invitation.role };
}

/**
 * Accepts an invitation as the signed-in account: only once, before it expires, and only by an
 * account whose verified e-mail address is the invited one. The membership, the invitation's use and
 * the audit entry are one transaction; the invitation row is locked so two acceptances cannot both win.
 */
export async function acceptInvitation(db: Db, input: { token: string; userId: string } & RequestClient, now = new Date()) {
  return db.$transaction(async (tx) => {
    const invitation = await lockPendingInvitation(tx, input.token, now);
    const user = await tx.user.findUniqueOrThrow({ where: { id: input.userId } });
    if (user.email !== invitation.email) {
      throw new DomainError("forbidden", `This invitation is for ${invitation.email}; you are signed in as ${user.email}. Sign in with the invited address.`);
    }
    if (!user.emailVerifiedAt) throw new DomainError("forbidden", "Verify your e-mail address first: follow the link we sent you, or send a new one.");
    return joinByInvitation(tx, invitation, user, input, now);
  });
}
