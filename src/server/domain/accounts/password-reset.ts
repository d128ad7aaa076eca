import type { Db } from "@/server/db/client";
import { recordAccountEvent, type RequestClient } from "@/server/domain/audit/record-audit";
import { DomainError } from "@/server/domain/errors";
import { deleteSessions } from "@/server/domain/sessions/end-sessions";
import { consumeAccountToken, issueAccountToken } from "./account-tokens";
import { requireNotEmail } from "./change-password";
import { hashPassword } from "./password";

/**
 * A reset link for the account with this e-mail, or null when there is none. The caller answers the
 * same either way, so the request never tells whether an account exists.
 */
export async function requestPasswordReset(db: Db, email: string, now = new Date()) {
  const user = await db.user.findUnique({ where: { email } });
  if (!user) return null;
  return db.$transaction(async (tx) => ({ to: user.email, ...(await issueAccountToken(tx, user, "resetPassword", now)) }));
}

/**
 * Sets a new password from a reset link (single use) and ends every session of the account. Following
 * the link proves the address, so an unverified one becomes verified. The token is consumed before the
 * password is hashed, so a bogus token costs one indexed DELETE and no scrypt; the transaction keeps it
 * usable when the password is refused (or anything else fails), and holds a connection through the hash
 * only for a real link.
 */
export async function resetPassword(db: Db, input: { token: string; newPassword: string } & RequestClient, now = new Date()) {
  return db.$transaction(async (tx) => {
    const used = await consumeAccountToken(tx, input.token, "resetPassword", now);
    if (!used) throw new DomainError("invalid", "This reset link is invalid, was already used or has expired. Ask for a new one.");
    const user = await tx.user.findUniqueOrThrow({ where: { id: used.userId } });
    if (user.email !== used.email) throw new DomainError("invalid", "This reset link was sent to another address. Ask for a new one.");
    requireNotEmail(input.newPassword, user.email);
    const passwordHash = await hashPassword(input.newPassword);
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now } });
    const endedSessions = await deleteSessions(tx, user.id);
    await recordAccountEvent(tx, user.id, { type: "user", id: user.id, label: user.email, userAgent: input.userAgent, ipAddress: input.ipAddress }, {
      action: "password.reset",
      details: { endedSessions },
    });
    return { email: user.email, endedSessions };
  });
}
