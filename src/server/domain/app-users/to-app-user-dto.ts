import { Prisma } from "@/generated/prisma/client";
import type { AppUserAttributes } from "@/lib/schemas/app-users";

/**
 * Load app users with this include: their counters (AppUserCounters), and `referredBy`, the client id
 * of the referrer of the user's reward as referee. That is read, not stored, so a claim writes no row
 * of the referee; a referee is rewarded once, except through rewards grandfathered by the farming
 * rules, of which the first counts.
 */
export const appUserDtoInclude = {
  counters: { select: { totalReferralsGiven: true, successfulReferrals: true } },
  rewardsAsReferee: { select: { referrer: { select: { clientProvidedId: true } } }, orderBy: [{ claimedAt: "asc" }, { id: "asc" }], take: 1 },
} satisfies Prisma.AppUserInclude;
export type AppUserRow = Prisma.AppUserGetPayload<{ include: typeof appUserDtoInclude }>;
type Counters = NonNullable<AppUserRow["counters"]>;
/** appUserDtoInclude's relations of a user just inserted: zero counters, no reward as referee. */
export const NEW_USER_RELATIONS = {
  counters: { totalReferralsGiven: 0, successfulReferrals: 0 },
  rewardsAsReferee: [],
} satisfies Pick<AppUserRow, "counters" | "rewardsAsReferee">;
/** What the DTO is made of: a loaded row, or a hand-written statement's columns. */
export type AppUserDtoSource = Pick<
  AppUserRow,
  | "id"
  | "clientProvidedId"
  | "referralCode"
  | "attributes"
  | "firstSeenAt"
  | "lastSeenAt"
  | "totalReferralsReceived"
  | "status"
  | "counters"
  | "rewardsAsReferee"
  | "createdAt"
>;

/**
 * The DTO's columns of an "AppUser" u, its counters c and its referrer r (APP_USER_JOINS), for
 * hand-written statements (see fromAppUserColumns).
 */
export const APP_USER_COLUMNS = Prisma.sql`u."id", u."clientProvidedId", u."referralCode", u."attributes", u."firstSeenAt",
  u."lastSeenAt", c."totalReferralsGiven", u."totalReferralsReceived", c."successfulReferrals", u."status", u."createdAt",
  r."clientProvidedId" AS "referrerClientId"`;
/** appUserDtoInclude in SQL: the counters c and the referrer r of an "AppUser" u. */
export const APP_USER_JOINS = Prisma.sql`LEFT JOIN "AppUserCounters" c ON c."appUserId" = u."id"
  LEFT JOIN "AppUser" r ON r."id" = (SELECT h."referrerId" FROM "RewardHistory" h WHERE h."refereeId" = u."id" ORDER BY h."claimedAt", h."id" LIMIT 1)`;
export type AppUserColumns = Omit<AppUserDtoSource, "counters" | "rewardsAsReferee"> & Counters & { referrerClientId: string | null };

export const fromAppUserColumns = ({ referrerClientId, totalReferralsGiven, successfulReferrals, ...user }: AppUserColumns): AppUserDto =>
  toAppUserDto({
    ...user,
    counters: { totalReferralsGiven, successfulReferrals },
    rewardsAsReferee: referrerClientId === null ? [] : [{ referrer: { clientProvidedId: referrerClientId } }],
  });

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
  /** The referrer's clientProvidedId, once a referral of this user completed (see appUserDtoInclude). */
  referredBy: string | null;
  createdAt: string;
};

export function toAppUserDto(user: AppUserDtoSource): AppUserDto {
  return {
    uniqueId: user.id,
    clientProvidedId: user.clientProvidedId,
    referralCode: user.referralCode,
    attributes: readAttributes(user.attributes),
    firstSeenAt: user.firstSeenAt.toISOString(),
    lastSeenAt: user.lastSeenAt?.toISOString() ?? null,
    totalReferralsGiven: user.counters?.totalReferralsGiven ?? 0,
    totalReferralsReceived: user.totalReferralsReceived,
    successfulReferrals: user.counters?.successfulReferrals ?? 0,
    status: user.status,
    referredBy: user.rewardsAsReferee[0]?.referrer?.clientProvidedId ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}

/** Stored JSON is trusted only as far as its shape: non-string values are dropped, not passed on. */
export function readAttributes(json: Prisma.JsonValue): AppUserAttributes {
  if (!json || typeof json !== "object" || Array.isArray(json)) return {};
  return Object.fromEntries(Object.entries(json).filter((e): e is [string, string] => typeof e[1] === "string"));
}
