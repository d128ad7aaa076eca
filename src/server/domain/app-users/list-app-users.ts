import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import {
  APP_USER_COLUMNS,
  fromAppUserColumns,
  REFERRER_JOIN,
  toAppUserDto,
  withReferrer,
  type AppUserColumns,
  type AppUserDto,
} from "@/server/domain/app-users/to-app-user-dto";
import { notFound } from "@/server/domain/errors";
import type { z } from "zod";
import type { AppUserSortField, listAppUsersQuery, SortOrder } from "@/lib/schemas/app-users";
import { pageWindow, toPage, type PageEnvelope, type Paging } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { planned } from "@/server/db/prepared-statements";

export type ListAppUsersInput = z.output<typeof listAppUsersQuery>;

export async function listAppUsers(
  db: Db,
  organizationId: string,
  projectId: string,
  input: ListAppUsersInput,
): Promise<PageEnvelope<AppUserDto>> {
  const paging = pageWindow(input);
  if (input.search) {
    // Checks the project's ownership too, so a search that matches too many for it need not again.
    const sorted = await searchSortingMatches(db, organizationId, projectId, input, paging);
    if (sorted) return sorted;
  } else {
    await getOwnedProject(db, organizationId, projectId);
  }
  const where: Prisma.AppUserWhereInput = {
    projectId,
    ...(input.hasReferrals === undefined ? {} : { totalReferralsGiven: input.hasReferrals ? { gt: 0 } : 0 }),
    ...(input.search ? { OR: searchConditions(input.search) } : {}),
  };
  const [rows, totalCount] = await Promise.all([
    db.appUser.findMany({ where, orderBy: orderBy(input.sortBy, input.sortOrder), skip: paging.skip, take: paging.pageSize, include: withReferrer }),
    db.appUser.count({ where }),
  ]);
  return toPage(rows.map(toAppUserDto), paging, totalCount);
}

type SearchRow = Omit<AppUserColumns, "id"> & { id: string | null; matchCount: number; ownProject: boolean };

/**
 * A search's page in one statement when it matches at most SORT_MATCHES_MAX users: the trigram and
 * code indexes find the matches, which are counted and sorted as they are, with the project's
 * ownership and each user's referrer in the same statement. PostgreSQL, left to itself, sometimes
 * misjudges how many a term matches and walks the sort's index instead, filtering hundreds of
 * thousands of rows to find twenty (half a second at a million users). Null when there are more
 * matches: then that walk is the quick way, and the caller takes it, having paid for this statement
 * (which stops collecting at SORT_MATCHES_MAX + 1) on terms that match that many.
 */
async function searchSortingMatches(
  db: Db,
  organizationId: string,
  projectId: string,
  input: ListAppUsersInput,
  paging: Paging,
): Promise<PageEnvelope<AppUserDto> | null> {
  const order = Prisma.sql`${direction(input.sortOrder)} ${input.sortBy === "lastSeenAt" ? Prisma.raw("NULLS LAST") : Prisma.empty}, page."id" ${direction(input.sortOrder)}`;
  const rows = await planned<SearchRow>(db)`
    WITH matches AS MATERIALIZED (
      SELECT "id", ${Prisma.raw(`"${input.sortBy}"`)} AS "sortKey" FROM "AppUser" WHERE ${searchSql(projectId, input)}
      LIMIT ${SORT_MATCHES_MAX + 1}
    ), page AS (
      SELECT "id", "sortKey" FROM matches page ORDER BY page."sortKey" ${order} LIMIT ${paging.pageSize} OFFSET ${paging.skip}
    )
    SELECT (SELECT count(*) FROM matches)::int AS "matchCount",
      EXISTS (SELECT FROM "Project" WHERE "id" = ${projectId} AND "organizationId" = ${organizationId}) AS "ownProject",
      ${APP_USER_COLUMNS}
    FROM (VALUES (1)) AS one
    LEFT JOIN (page JOIN "AppUser" u ON u."id" = page."id" ${REFERRER_JOIN}) ON true
    ORDER BY page."sortKey" ${order}`;
  const [first] = rows;
  if (!first?.ownProject) throw notFound("Project");
  if (first.matchCount > SORT_MATCHES_MAX) return null;
  const users = rows.flatMap(({ id, matchCount: _count, ownProject: _own, ...user }) => (id === null ? [] : [fromAppUserColumns({ ...user, id })]));
  return toPage(users, paging, first.matchCount);
}

/** Up to this many matches a search sorts them itself rather than walking the sort's index (the column comes from the schema's enum). */
const SORT_MATCHES_MAX = 10_000;

const direction = (order: SortOrder) => Prisma.raw(order === "asc" ? "ASC" : "DESC");

/**
 * A case-insensitive substring of the client id, or the exact referral code (codes are
 * case-sensitive). Attribute values are not searched: a substring match inside JSON cannot use an
 * index and would scan every row of a large project.
 */
function searchConditions(search: string): Prisma.AppUserWhereInput[] {
  return [{ clientProvidedId: { contains: escapeLike(search), mode: "insensitive" } }, { referralCode: search }];
}

/** searchConditions and the filters in SQL, for the sorted-matches path. */
function searchSql(projectId: string, input: ListAppUsersInput): Prisma.Sql {
  const referrals =
    input.hasReferrals === undefined ? Prisma.empty : input.hasReferrals ? Prisma.sql`AND "totalReferralsGiven" > 0` : Prisma.sql`AND "totalReferralsGiven" = 0`;
  return Prisma.sql`"projectId" = ${projectId} AND ("clientProvidedId" ILIKE ${`%${escapeLike(input.search!)}%`} OR "referralCode" = ${input.search}) ${referrals}`;
}

/** The user's % and _ are literal in a search, not ILIKE wildcards (Prisma passes `contains` as is). */
const escapeLike = (term: string) => term.replace(/[\\%_]/g, "\\$&");

/** Never-seen users go last either way; the id tie-break keeps pages stable between requests. */
function orderBy(field: AppUserSortField, order: SortOrder): Prisma.AppUserOrderByWithRelationInput[] {
  const primary: Prisma.AppUserOrderByWithRelationInput =
    field === "lastSeenAt" ? { lastSeenAt: { sort: order, nulls: "last" } } : { [field]: order };
  return [primary, { id: order }];
}
