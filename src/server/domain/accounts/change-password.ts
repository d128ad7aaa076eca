import { passwordMatchesEmail, PASSWORD_MESSAGES } from "@/lib/schemas/password";
import type { Db } from "@/server/db/client";
import { recordAccountEvent, type RequestClient } from "@/server/domain/audit/record-audit";
import { invalidField } from "@/server/domain/errors";
import { deleteSessions } from "@/server/domain/sessions/end-sessions";
import { hashPassword, verifyPassword } from "./password";

/** The password policy's one rule that needs the account: not its e-mail address. */
export function requireNotEmail(password: string, email: string) {
  if (passwordMatchesEmail(password, email)) throw invalidField("newPassword", "custom", PASSWORD_MESSAGES.email);
}

/**
 * Changes the password (the current one proves it is the owner at the keyboard) and ends every other
 * session of the account: a stolen cookie stops working. The schema already applied the policy.
 */
export async function changePassword(
  db: Db,
  input: { userId: string; sessionId: string; currentPassword: string; newPassword: string } & RequestClient,
): Promise<{ endedSessions: number }> {
  const user = await db.user.findUniqueOrThrow({ where: { id: input.userId } });
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw invalidField("currentPassword", "matches", "is not your current password");
  }
  requireNotEmail(input.newPassword, user.email);
  const passwordHash = await hashPassword(input.newPassword);
  return db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    const endedSessions = await deleteSessions(tx, user.id, input.sessionId);
    await tx.accountToken.deleteMany({ where: { userId: user.id, purpose: "resetPassword" } });
    await recordAccountEvent(tx, user.id, { type: "user", id: user.id, label: user.email, userAgent: input.userAgent, ipAddress: input.ipAddress }, {
      action: "password.change",
      details: { endedSessions },
    });
    return { endedSessions };
  });
}
