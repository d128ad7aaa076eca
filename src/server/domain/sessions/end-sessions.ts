import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { recordAccountEvent, type AuditActor, type RequestClient } from "@/server/domain/audit/record-audit";
import { notFound } from "@/server/domain/errors";

const userActor = (user: { id: string; email: string }, client: RequestClient): AuditActor => ({ type: "user", id: user.id, label: user.email, ...client });

/**
 * Sign-out: the session stops counting at once, whatever copies of the cookie exist. Quiet when already
 * gone. next-auth's sign-out event has no request headers, so the entry names the session's own device,
 * and the address of the sign-out request when its route knew it.
 */
export async function endSession(db: Db, userId: string, sessionId: string, ipAddress: string | null): Promise<void> {
  await db.$transaction(async (tx) => {
    const session = await tx.session.findFirst({ where: { id: sessionId, userId }, include: { user: { select: { id: true, email: true } } } });
    if (!session) return;
    await tx.session.delete({ where: { id: session.id } });
    await recordAccountEvent(tx, userId, userActor(session.user, { userAgent: session.userAgent, ipAddress }), { action: "auth.sign_out", target: { type: "session", id: session.id } });
  });
}

/** The account owner ends one of their sessions (another device, or this one). */
export async function revokeSession(db: Db, user: { id: string; email: string }, sessionId: string, client: RequestClient): Promise<void> {
  await db.$transaction(async (tx) => {
    const { count } = await tx.session.deleteMany({ where: { id: sessionId, userId: user.id } });
    if (!count) throw notFound("Session");
    await recordAccountEvent(tx, user.id, userActor(user, client), { action: "session.revoke", target: { type: "session", id: sessionId } });
  });
}

/** Ends every session of the account but `keep` (none kept: sign out everywhere); how many ended. */
export async function deleteSessions(tx: Prisma.TransactionClient, userId: string, keep?: string): Promise<number> {
  const { count } = await tx.session.deleteMany({ where: { userId, ...(keep ? { id: { not: keep } } : {}) } });
  return count;
}

/** "Sign out everywhere": every session of the account ends, this one included. */
export async function signOutEverywhere(db: Db, user: { id: string; email: string }, client: RequestClient): Promise<{ ended: number }> {
  return db.$transaction(async (tx) => {
    const ended = await deleteSessions(tx, user.id);
    await recordAccountEvent(tx, user.id, userActor(user, client), { action: "session.revoke_all", details: { ended } });
    return { ended };
  });
}
