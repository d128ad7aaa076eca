import type { Db } from "@/server/db/client";
import { recordAccountEvent, type RequestClient } from "@/server/domain/audit/record-audit";
import { checkPassword } from "@/server/domain/accounts/verify-credentials";
import { sessionExpiry } from "./session-lifetime";

const USER_AGENT_MAX_LENGTH = 500;

/**
 * E-mail and password sign-in. Success opens a server-side session (its id goes into the cookie) and
 * audits the sign-in; a wrong password for an existing account audits the failure (an unknown e-mail
 * belongs to no organisation, so nothing is written). Null on any failure, without saying which. The
 * session keeps the device and address it was opened from, for the account's list of sessions.
 */
export async function signInWithPassword(db: Db, input: { email: string; password: string } & RequestClient, now = new Date()) {
  const { user, ok } = await checkPassword(db, input.email, input.password);
  const client: RequestClient = { userAgent: input.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null, ipAddress: input.ipAddress };
  if (!user) return null;
  const actor = { type: "user" as const, id: user.id, label: user.email, ...client };
  if (!ok) {
    await recordAccountEvent(db, user.id, actor, { action: "auth.sign_in_failed" });
    return null;
  }
  const session = await db.$transaction(async (tx) => {
    // Expired sessions of the account are swept here, where the account adds one.
    await tx.session.deleteMany({ where: { userId: user.id, expiresAt: { lte: now } } });
    const session = await tx.session.create({ data: { userId: user.id, ...client, createdAt: now, lastSeenAt: now, expiresAt: sessionExpiry(now) } });
    await recordAccountEvent(tx, user.id, actor, { action: "auth.sign_in", target: { type: "session", id: session.id } });
    return session;
  });
  return { user: { id: user.id, email: user.email, name: user.name }, sessionId: session.id };
}
