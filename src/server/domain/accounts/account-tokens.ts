import type { AccountTokenPurpose } from "@/generated/prisma/enums";
import type { Prisma } from "@/generated/prisma/client";
import { hashToken, newToken } from "@/server/domain/tokens";

/** How long an e-mailed link works. */
export const TOKEN_LIFETIME_MS: Record<AccountTokenPurpose, number> = {
  verifyEmail: 24 * 60 * 60 * 1000,
  resetPassword: 60 * 60 * 1000,
};

/**
 * A new single-use link token for the account, replacing any earlier one of the same purpose (only
 * the newest link works). Only its hash is stored; the token itself goes into the e-mail.
 */
export async function issueAccountToken(tx: Prisma.TransactionClient, user: { id: string; email: string }, purpose: AccountTokenPurpose, now = new Date()) {
  const token = newToken("");
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]);
  await tx.accountToken.deleteMany({ where: { userId: user.id, purpose } });
  await tx.accountToken.create({ data: { userId: user.id, purpose, email: user.email, tokenHash: hashToken(token), expiresAt, createdAt: now } });
  return { token, expiresAt };
}

/**
 * Uses a token up: it is deleted in the same statement that finds it, so of two uses one wins. Null
 * for an unknown, used, expired or other-purpose token (the caller says "invalid or expired").
 */
export async function consumeAccountToken(tx: Prisma.TransactionClient, token: string, purpose: AccountTokenPurpose, now = new Date()) {
  const [row] = await tx.$queryRaw<{ userId: string; email: string }[]>`
    DELETE FROM "AccountToken"
    WHERE "tokenHash" = ${hashToken(token)} AND "purpose" = ${purpose}::"AccountTokenPurpose" AND "expiresAt" > ${now}
    RETURNING "userId", "email"`;
  return row ?? null;
}
