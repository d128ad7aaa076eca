import type { AppUser, Prisma } from "@/generated/prisma/client";
import type { AppUserAttributes } from "@/lib/schemas/app-users";
import { DomainError } from "@/server/domain/errors";
import { randomAlphanumeric } from "@/server/domain/tokens";

export const REFERRAL_CODE_LENGTH = 6;
/** 62^6 codes: even at millions of users per project a second collision in a row is vanishingly rare. */
const MAX_CODE_ATTEMPTS = 8;

export type NewAppUser = {
  projectId: string;
  clientProvidedId: string;
  attributes: AppUserAttributes;
  lastSeenAt?: Date | null;
};

/**
 * Inserts the user with a fresh referral code, or returns null when the project already has this
 * client id. The unique indexes decide both clashes; the insert uses ON CONFLICT DO NOTHING rather
 * than catching P2002 because a refused row must not abort the caller's transaction.
 */
export async function insertAppUser(tx: Prisma.TransactionClient, user: NewAppUser): Promise<AppUser | null> {
  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
    const [created] = await tx.appUser.createManyAndReturn({
      data: [{ ...user, referralCode: randomAlphanumeric(REFERRAL_CODE_LENGTH) }],
      skipDuplicates: true,
    });
    if (created) return created;
    const taken = await tx.appUser.findUnique({
      where: { projectId_clientProvidedId: { projectId: user.projectId, clientProvidedId: user.clientProvidedId } },
      select: { id: true },
    });
    if (taken) return null;
    // Otherwise the referral code collided: draw another.
  }
  throw new DomainError("unavailable", `No free referral code after ${MAX_CODE_ATTEMPTS} attempts; retry the request.`);
}
