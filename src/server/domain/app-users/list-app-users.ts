import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { APP_USER_COLUMNS, APP_USER_JOINS, fromAppUserColumns, type AppUserColumns, type AppUserDto } from "@/server/domain/app-users/to-app-user-dto";
import { notFound } from "@/server/domain/errors";
import type { z } from "zod";
import type { AppUserSortField, listAppUsersQuery, SortOrder } from "@/lib/schemas/app-users";
import { pageWindow, toPage, type PageEnvelope, type Paging } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { planned } from "@/server/db/prepared-statements";
import { containsPattern, prefixPattern } from "@/server/db/like-pattern";

export type ListAppUsersInput = z.output<typeof listAppUsersQuery>;

/*
 * The list reads two tables: AppUser (u) and AppUserCounters (c), which holds the two referral
 * counters one can sort and filter by. Each statement reads the tables its filters and sort need, and
 * matches the project on the table whose index gives the order, so that a page is a walk of that
 * index. A page is chosen by id first and only its rows are read in full: the columns, counters and
 * referrer of the 10,000 rows an OFFSET skips would be read for nothing.
 */

export async function listAppUsers(
  db: Db,
  organizationId: string,
  projectId: string,
  input: ListAppUsersInput,
): Promise<PageEnvelope<AppUserDto>> {
  const paging = pageWindow(input);
  if (input.search || attributeFilter(input)) {
    // Checks the project's ownership too, so a search that matches too many for it need not again.
    const sorted = await searchSortingMatches(db, organizationId, projectId, input, paging);
    if (sorted) return sorted;
  } else {
    await getOwnedProject(db, organizationId, projectId);
  }
  const sort = sortKey(input.sortBy);
  const [rows, [counted]] = await Promise.all([
    planned<AppUserColumns>(db)`
      WITH page AS (
        SELECT ${sort.id} AS "id", ${sort.column} AS "sortKey" ${fromWhere(projectId, input, sort.table)}
        ORDER BY ${sort.column} ${order(input)}, ${sort.id} ${direction(input.sortOrder)}
        LIMIT ${paging.pageSize} OFFSET ${paging.skip}
      )
      SELECT ${APP_USER_COLUMNS} FROM page JOIN "AppUser" u ON u."id" = page."id" ${APP_USER_JOINS}
      ORDER BY page."sortKey" ${order(input)}, page."id" ${direction(input.sortOrder)}`,
    planned<{ count: number }>(db)`SELECT count(*)::int AS "count" ${fromWhere(projectId, input)}`,
  ]);
  return toPage(rows.map(fromAppUserColumns), paging, counted?.count ?? 0);
}

type SearchRow = Omit<AppUserColumns, "id"> & { id: string | null; matchCount: number; ownProject: boolean };

/**
 * A search's (or an attribute filter's) page in one statement when it matches at most
 * SORT_MATCHES_MAX users: the trigram, code and attributes indexes find the matches, which are
 * counted and sorted as they are, with the project's ownership and each user's referrer in the same
 * statement. PostgreSQL, left to itself, sometimes misjudges how many a term matches and walks the
 * sort's index instead, filtering hundreds of thousands of rows to find twenty (half a second at a
 * million users). Null when there are more matches: then that walk is the quick way, and the caller
 * takes it, having paid for this statement (which stops collecting at SORT_MATCHES_MAX + 1) on
 * terms that match that many.
 */
async function searchSortingMatches(
  db: Db,
  organizationId: string,
  projectId: string,
  input: ListAppUsersInput,
  paging: Paging,
): Promise<PageEnvelope<AppUserDto> | null> {
  const pageOrder = Prisma.sql`page."sortKey" ${order(input)}, page."id" ${direction(input.sortOrder)}`;
  const rows = await planned<SearchRow>(db)`
    WITH matches AS MATERIALIZED (
      SELECT u."id", ${sortKey(input.sortBy).column} AS "sortKey" ${fromWhere(projectId, input, "u")}
      LIMIT ${SORT_MATCHES_MAX + 1}
    ), page AS (
      SELECT "id", "sortKey" FROM matches page ORDER BY ${pageOrder} LIMIT ${paging.pageSize} OFFSET ${paging.skip}
    )
    SELECT (SELECT count(*) FROM matches)::int AS "matchCount",
      EXISTS (SELECT FROM "Project" WHERE "id" = ${projectId} AND "organizationId" = ${organizationId}) AS "ownProject",
      ${APP_USER_COLUMNS}
    FROM (VALUES (1)) AS one
    LEFT JOIN (page JOIN "AppUser" u ON u."id" = page."id" ${APP_USER_JOINS}) ON true
    ORDER BY ${pageOrder}`;
  const [first] = rows;
  if (!first?.ownProject) throw notFound("Project");
  if (first.matchCount > SORT_MATCHES_MAX) return null;
  const users = rows.flatMap(({ id, matchCount: _count, ownProject: _own, ...user }) => (id === null ? [] : [fromAppUserColumns({ ...user, id })]));
  return toPage(users, paging, first.matchCount);
}

/** Up to this many matches a search sorts them itself rather than walking the sort's index. */
const SORT_MATCHES_MAX = 10_000;

/** The sort fields kept in AppUserCounters; the others are AppUser's. */
const COUNTER_FIELDS: ReadonlySet<AppUserSortField> = new Set(["successfulReferrals", "totalReferralsGiven"]);

/** The field's column (the name comes from the schema's enum), and the table and id column of the index that orders by it. */
function sortKey(field: AppUserSortField) {
  return COUNTER_FIELDS.has(field)
    ? ({ table: "c", column: Prisma.raw(`c."${field}"`), id: Prisma.raw(`c."appUserId"`) } as const)
    : ({ table: "u", column: Prisma.raw(`u."${field}"`), id: Prisma.raw(`u."id"`) } as const);
}

/**
 * `FROM ... WHERE ...` of the users matching the filters, over the tables the filters need and, for
 * a statement that sorts, the sort's table; the project is matched on `table`, given when the
 * statement sorts, else on AppUser when it is read (a count then reads its small projectId index). The filters: the referrals, the search (searchCondition), and one attribute's exact value.
 * Attribute values are matched whole, never as substrings: containment (@>) is what the
 * attributes GIN index (jsonb_path_ops) answers; a substring inside JSON would scan the project.
 */
function fromWhere(projectId: string, input: ListAppUsersInput, table?: "u" | "c"): Prisma.Sql {
  const sorted = table === undefined ? null : sortKey(input.sortBy).table;
  const counters = input.hasReferrals !== undefined || sorted === "c";
  const users = Boolean(input.search) || Boolean(attributeFilter(input)) || sorted === "u" || !counters;
  const from = !counters
    ? Prisma.sql`"AppUser" u`
    : !users
      ? Prisma.sql`"AppUserCounters" c`
      : Prisma.sql`"AppUser" u JOIN "AppUserCounters" c ON c."appUserId" = u."id"`;
  const owner = Prisma.raw(table ?? (users ? "u" : "c"));
  return Prisma.sql`FROM ${from} WHERE ${owner}."projectId" = ${projectId} ${userFilters(input)}`;
}

/** The filters' conditions (`AND ...`), on AppUser as u and AppUserCounters as c; the export applies the same. */
export function userFilters(input: Pick<ListAppUsersInput, "search" | "hasReferrals" | "attributeKey" | "attributeValue">): Prisma.Sql {
  const referrals =
    input.hasReferrals === undefined ? Prisma.empty : Prisma.sql`AND c."totalReferralsGiven" ${Prisma.raw(input.hasReferrals ? "> 0" : "= 0")}`;
  const search = input.search ? Prisma.sql`AND (${searchCondition(input.search)})` : Prisma.empty;
  const attribute = attributeFilter(input);
  // Containment of {key: value}: exact, since attributes are string to string. The object is one
  // parameter, so no key or value is ever SQL text.
  const attributes = attribute ? Prisma.sql`AND u."attributes" @> ${JSON.stringify({ [attribute.key]: attribute.value })}::jsonb` : Prisma.empty;
  return Prisma.sql`${referrals} ${search} ${attributes}`;
}

/**
 * What a search term matches: part of the client id (any case; the trigram index), the exact referral
 * code, or the start of the `email` or `name` attribute, in any case. Each has an index (the last two
 * per project, on the lower-cased value: migration 20261129060000), so the matches are gathered from
 * indexes, never by reading the project's users.
 */
function searchCondition(term: string): Prisma.Sql {
  const prefix = prefixPattern(term);
  return Prisma.sql`u."clientProvidedId" ILIKE ${containsPattern(term)} OR u."referralCode" = ${term}
    OR lower(u."attributes"->>'email') LIKE lower(${prefix}) OR lower(u."attributes"->>'name') LIKE lower(${prefix})`;
}

/** The attribute filter when both halves are given (the schema refuses one alone). */
function attributeFilter({ attributeKey: key, attributeValue: value }: Pick<ListAppUsersInput, "attributeKey" | "attributeValue">) {
  return key === undefined || value === undefined ? null : { key, value };
}

const direction = (order: SortOrder) => Prisma.raw(order === "asc" ? "ASC" : "DESC");

/** The sort's direction; never-seen users go last either way. The id that follows keeps pages stable between requests. */
const order = (input: ListAppUsersInput) =>
  Prisma.sql`${direction(input.sortOrder)} ${input.sortBy === "lastSeenAt" ? Prisma.raw("NULLS LAST") : Prisma.empty}`;
