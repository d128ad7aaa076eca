import type { Db } from "@/server/db/client";
import { pendingWhere } from "./invitation-state";

/** The organisation's pending invitations, newest first. */
export async function listPendingInvitations(db: Db, organizationId: string, now = new Date()) {
  const rows = await db.invitation.findMany({
    where: { organizationId, ...pendingWhere(now) },
    include: { invitedBy: { select: { email: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
  return rows.map((i) => ({
    id: i.id,
    email: i.email,
    role: i.role,
    invitedBy: i.invitedBy?.email ?? null,
    createdAt: i.createdAt.toISOString(),
    expiresAt: i.expiresAt.toISOString(),
  }));
}
