import { Prisma, type AppUser } from "@/generated/prisma/client";
import { prepared } from "@/server/db/prepared-statements";
import type { AppUserAttributes } from "@/lib/schemas/app-users";
import { successfulReferralsOf } from "@/server/domain/referrals/referral-credits";

/**
 * The DTO's columns of an "AppUser" u, its counters c (with its credits not yet folded) and its
 * referrer r (APP_USER_JOINS). `referredBy` is the client id of the referrer of the user's reward as
 * referee: read, not stored, so a claim writes no row of the referee; a referee is rewarded once,
 * except through rewards grandfathered by the farming rules, of which the first counts.
 */
export const APP_USER_COLUMNS = Prisma.sql`u."id", u."clientProvidedId", u."referralCode", u."attributes", u."firstSeenAt",
  u."lastSeenAt", c."totalReferralsGiven", u."totalReferralsReceived",
  ${successfulReferralsOf(Prisma.raw(`u."id"`), Prisma.raw("c"))} AS "successfulReferrals", u."status", u."createdAt",
  r."clientProvidedId" AS "referrerClientId"`;
/** The counters c and the referrer r of an "AppUser" u. */
export const APP_USER_JOINS = Prisma.sql`LEFT JOIN "AppUserCounters" c ON c."appUserId" = u."id"
  LEFT JOIN "AppUser" r ON r."id" = (SELECT h."referrerId" FROM "RewardHistory" h WHERE h."refereeId" = u."id" ORDER BY h."claimedAt", h."id" LIMIT 1)`;
/** What the DTO is made of: APP_USER_COLUMNS (a user without counters, or not yet rewarded, has them null; successfulReferrals is counted, never null). */
export type AppUserColumns = Pick<
  AppUser,
  "id" | "clientProvidedId" | "referralCode" | "attributes" | "firstSeenAt" | "lastSeenAt" | "totalReferralsReceived" | "status" | "createdAt"
> & { totalReferralsGiven: number | null; successfulReferrals: number; referrerClientId: string | null };
/** APP_USER_COLUMNS' own columns of a user just inserted: no counters, no reward as referee. */
export const NEW_USER_COLUMNS = { totalReferralsGiven: 0, successfulReferrals: 0, referrerClientId: null } satisfies Partial<AppUserColumns>;

/** The user of a project by `where` (on u), with APP_USER_COLUMNS. */
export async function selectAppUser(db: Pick<Prisma.TransactionClient, "$queryRaw">, where: Prisma.Sql): Promise<AppUserColumns | undefined> {
  const [user] = await prepared<AppUserColumns>(db)`SELECT ${APP_USER_COLUMNS} FROM "AppUser" u ${APP_USER_JOINS} WHERE ${where}`;
  return user;
}

/** The spec's `AppUserDto`, plus `referralCode` and `createdAt`. */
export type AppUserDto = {
  uniqueId: string;
  clientProvidedId: string;
  referralCode: string;
  attributes: AppUserAttributes;
  firstSeenAt: string;
  lastSeenAt: string | null;
  totalReferralsGiven: number;
  totalReferralsReceived: number;
  successfulReferrals: number;
  status: string;
  /** The referrer's clientProvidedId, once a referral of this user completed (see APP_USER_COLUMNS). */
  referredBy: string | null;
  createdAt: string;
};

export function toAppUserDto(user: AppUserColumns): AppUserDto {
  return {
    uniqueId: user.id,
    clientProvidedId: user.clientProvidedId,
    referralCode: user.referralCode,
    attributes: readAttributes(user.attributes),
    firstSeenAt: user.firstSeenAt.toISOString(),
    lastSeenAt: user.lastSeenAt?.toISOString() ?? null,
    totalReferralsGiven: user.totalReferralsGiven ?? 0,
    totalReferralsReceived: user.totalReferralsReceived,
    successfulReferrals: user.successfulReferrals,
    status: user.status,
    referredBy: user.referrerClientId,
    createdAt: user.createdAt.toISOString(),
  };
}

/** Stored JSON is trusted only as far as its shape: non-string values are dropped, not passed on. */
export function readAttributes(json: Prisma.JsonValue): AppUserAttributes {
  if (!json || typeof json !== "object" || Array.isArray(json)) return {};
  return Object.fromEntries(Object.entries(json).filter((e): e is [string, string] => typeof e[1] === "string"));
}
