import type { Db } from "@/server/db/client";
import { recordAccountEvent, type RequestClient } from "@/server/domain/audit/record-audit";
import { DomainError, conflict } from "@/server/domain/errors";
import { consumeAccountToken, issueAccountToken } from "./account-tokens";

/**
 * A verification link for the account's address (sign-up, "resend verification"). Null when the
 * address is already verified: there is nothing to send.
 */
export async function issueEmailVerification(db: Db, userId: string, now = new Date()) {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId } });
    if (user.emailVerifiedAt) return null;
    return { to: user.email, ...(await issueAccountToken(tx, user, "verifyEmail", now)) };
  });
}

/** Follows a verification link: the address is verified if the account still has it. */
export async function verifyEmail(db: Db, token: string, client: RequestClient, now = new Date()): Promise<{ email: string }> {
  return db.$transaction(async (tx) => {
    const used = await consumeAccountToken(tx, token, "verifyEmail", now);
    if (!used) throw new DomainError("invalid", "This verification link is invalid or has expired. Sign in and send a new one.");
    const user = await tx.user.findUniqueOrThrow({ where: { id: used.userId } });
    if (user.email !== used.email) throw conflict("The account's e-mail address changed since this link was sent.");
    if (!user.emailVerifiedAt) {
      await tx.user.update({ where: { id: user.id }, data: { emailVerifiedAt: now } });
      await recordAccountEvent(tx, user.id, { type: "user", id: user.id, label: user.email, ...client }, { action: "email.verify" });
    }
    return { email: user.email };
  });
}
