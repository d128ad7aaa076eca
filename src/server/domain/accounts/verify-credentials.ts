import type { User } from "@/generated/prisma/client";
import type { Prisma } from "@/generated/prisma/client";
import { verifyPassword } from "./password";

// Compared against when the e-mail is unknown, so both paths take the same time.
const DUMMY_HASH = "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/** The account with this e-mail, if any, and whether the password is its own (same time either way). */
export async function checkPassword(db: Prisma.TransactionClient, email: string, password: string): Promise<{ user: User | null; ok: boolean }> {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  return { user, ok: ok && !!user };
}

export async function verifyCredentials(db: Prisma.TransactionClient, email: string, password: string) {
  const { user, ok } = await checkPassword(db, email, password);
  return ok ? user : null;
}
