import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { toAppUserDto, withReferrer, type AppUserDto, type AppUserRow } from "@/server/domain/app-users/to-app-user-dto";
import type { z } from "zod";
import type { AppUserSortField, listAppUsersQuery, SortOrder } from "@/lib/schemas/app-users";
import { pageWindow, toPage, type PageEnvelope } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

export type ListAppUsersInput = z.output<typeof listAppUsersQuery>;

export async function listAppUsers(
  db: Db,
  organizationId: string,
  projectId: string,
  input: ListAppUsersInput,
): Promise<PageEnvelope<AppUserDto>> {
  const paging = pageWindow(input);
  const project = await getOwnedProject(db, organizationId, projectId);
  const where: Prisma.AppUserWhereInput = {
    projectId: project.id,
    ...(input.hasReferrals === undefined ? {} : { totalReferralsGiven: input.hasReferrals ? { gt: 0 } : 0 }),
    ...(input.search ? { OR: searchConditions(input.search) } : {}),
  };
  const page = (rows: AppUserRow[], totalCount: number) => toPage(rows.map(toAppUserDto), paging, totalCount);
  const pageInSortOrder = () =>
    db.appUser.findMany({ where, orderBy: orderBy(input.sortBy, input.sortOrder), skip: paging.skip, take: paging.pageSize, include: withReferrer });
  if (!input.search) {
    const [rows, totalCount] = await Promise.all([pageInSortOrder(), db.appUser.count({ where })]);
    return page(rows, totalCount);
  }
  // A search counts its matches first (the trigram and code indexes find them), then takes the page
  // by what it found. Few matches: sort just those. PostgreSQL, left to itself, sometimes misjudges
  // how many a term matches and walks the sort's index instead, filtering hundreds of thousands of
  // rows to find twenty (half a second at a million users). Many: that walk is the quick way.
  const totalCount = await db.appUser.count({ where });
  if (totalCount > SORT_MATCHES_MAX) return page(await pageInSortOrder(), totalCount);
  const ids = await db.$queryRaw<{ id: string }[]>`
    WITH matches AS MATERIALIZED (
      SELECT "id", ${Prisma.raw(`"${input.sortBy}"`)} AS "sortKey" FROM "AppUser" WHERE ${searchSql(project.id, input)}
    )
    SELECT "id" FROM matches
    ORDER BY "sortKey" ${direction(input.sortOrder)} ${input.sortBy === "lastSeenAt" ? Prisma.raw("NULLS LAST") : Prisma.empty}, "id" ${direction(input.sortOrder)}
    LIMIT ${paging.pageSize} OFFSET ${paging.skip}`;
  const rows = new Map((await db.appUser.findMany({ where: { id: { in: ids.map((r) => r.id) } }, include: withReferrer })).map((r) => [r.id, r]));
  return page(ids.flatMap(({ id }) => rows.get(id) ?? []), totalCount);
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
