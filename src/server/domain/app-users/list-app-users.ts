import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { APP_USER_COLUMNS, APP_USER_JOINS, toAppUserDto, type AppUserColumns, type AppUserDto } from "@/server/domain/app-users/to-app-user-dto";
import { notFound } from "@/server/domain/errors";
import type { z } from "zod";
import type { AppUserSortField, listAppUsersQuery, SortOrder } from "@/lib/schemas/app-users";
import { LIST_COUNT_MAX } from "@/lib/schemas/common";
import { cappedPage, pageWindow, type CappedPage, type Paging } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { planned } from "@/server/db/prepared-statements";
import { containsPattern, prefixPattern } from "@/server/db/like-pattern";
import { foldCredits } from "@/server/domain/referrals/referral-credits";

export type ListAppUsersInput = z.output<typeof listAppUsersQuery>;
export type AppUserPage = CappedPage<AppUserDto>;

/*
 * The list reads two tables: AppUser (u) and AppUserCounters (c), which holds the two referral
 * counters one can sort and filter by. Each statement reads the tables its filters and sort need, and
 * matches the project on the table whose index gives the order, so that a page is a walk of that
 * index. A page is chosen by id first and only its rows are read in full: the columns, counters and
 * referrer of the 10,000 rows an OFFSET skips would be read for nothing. The count stops at
 * LIST_COUNT_MAX + 1 (totalCountExact says when it did); hasNextPage is exact either way.
 */

export async function listAppUsers(db: Db, organizationId: string, projectId: string, input: ListAppUsersInput): Promise<AppUserPage> {
  const paging = pageWindow(input);
  // Ordered by the count: the rewards' credits are folded into the counters' index first.
  if (input.sortBy === "successfulReferrals") await foldCredits(db, { wait: true });
  // Whether the matches are already known to be more than the count's cap.
  let overCap = false;
  if (input.search || attributeFilter(input)) {
    // Checks the project's ownership too, so a search that matches too many for it need not again.
    const sorted = await searchSortingMatches(db, organizationId, projectId, input, paging);
    if (sorted) return sorted;
    overCap = !narrowed(input);
  } else {
    await getOwnedProject(db, organizationId, projectId);
  }
  const sort = sortKey(input.sortBy);
  const [rows, count] = await Promise.all([
    planned<AppUserColumns>(db)`
      WITH page AS (
        SELECT ${sort.id} AS "id", ${sort.column} AS "sortKey" ${fromWhere(projectId, input, sort.table)}
        ORDER BY ${sort.column} ${order(input)}, ${sort.id} ${direction(input.sortOrder)}
        LIMIT ${paging.pageSize + 1} OFFSET ${paging.skip}
      )
      SELECT ${APP_USER_COLUMNS} FROM page JOIN "AppUser" u ON u."id" = page."id" ${APP_USER_JOINS}
      ORDER BY page."sortKey" ${order(input)}, page."id" ${direction(input.sortOrder)}`,
    overCap
      ? LIST_COUNT_MAX + 1
      : planned<{ count: number }>(db)`
          SELECT count(*)::int AS "count" FROM (SELECT 1 ${fromWhere(projectId, input)} LIMIT ${LIST_COUNT_MAX + 1}) AS matches`.then(
          ([counted]) => counted?.count ?? 0,
        ),
  ]);
  return cappedPage(rows.slice(0, paging.pageSize).map(toAppUserDto), paging, count, rows.length > paging.pageSize);
}

type SearchRow = Omit<AppUserColumns, "id"> & { id: string | null; foundCount: number; matchCount: number; ownProject: boolean };

/**
 * A search's (or an attribute filter's) page in one statement when it finds at most
 * LIST_COUNT_MAX users: the indexes find them (`found`, see foundUsers), the other filters keep
 * some (`matches`), which are counted and sorted as they are, with the project's ownership and each
 * user's referrer in the same statement. PostgreSQL, left to itself, sometimes misjudges how many a
 * term matches and walks the sort's index instead, filtering hundreds of thousands of rows to find
 * twenty (half a second at a million users). Null when more are found: then that walk is the quick
 * way, and the caller takes it, having paid for this statement, which reads at most
 * LIST_COUNT_MAX + 1 entries of each index.
 */
async function searchSortingMatches(
  db: Db,
  organizationId: string,
  projectId: string,
  input: ListAppUsersInput,
  paging: Paging,
): Promise<AppUserPage | null> {
  const sort = sortKey(input.sortBy);
  // The search's indexes carry createdAt: sorted by it (the default), the matches need no other read.
  const byCreation = input.sortBy === "createdAt";
  const users = (byCreation ? false : sort.table === "u") || Boolean(input.search && attributeFilter(input));
  const counters = sort.table === "c" || input.hasReferrals !== undefined;
  const pageOrder = Prisma.sql`page."sortKey" ${order(input)}, page."id" ${direction(input.sortOrder)}`;
  // Each part of the search is read from its index once (up to the cap): one over the cap says
  // enough, else the parts' users are deduplicated.
  const parts = Prisma.join(
    foundUsers(projectId, input).map((part, n) => Prisma.sql`SELECT ${n}::int AS "part", "id", "createdAt" FROM ${part} AS part`),
    " UNION ALL ",
  );
  const rows = await planned<SearchRow>(db)`
    WITH parts AS MATERIALIZED (${parts}),
    over AS (SELECT EXISTS (SELECT FROM parts GROUP BY "part" HAVING count(*) > ${LIST_COUNT_MAX}) AS "over"),
    found AS MATERIALIZED (SELECT DISTINCT "id", "createdAt" FROM parts WHERE NOT (SELECT "over" FROM over)),
    counted AS (SELECT CASE WHEN (SELECT "over" FROM over) THEN ${LIST_COUNT_MAX + 1} ELSE (SELECT count(*) FROM found) END::int AS "n"),
    matches AS MATERIALIZED (
      SELECT f."id", ${byCreation ? Prisma.raw(`f."createdAt"`) : sort.column} AS "sortKey" FROM found f
      ${users ? Prisma.sql`JOIN "AppUser" u ON u."id" = f."id"` : Prisma.empty}
      ${counters ? Prisma.sql`JOIN "AppUserCounters" c ON c."appUserId" = f."id"` : Prisma.empty}
      WHERE (SELECT "n" FROM counted) <= ${LIST_COUNT_MAX}
      ${userFilters({ hasReferrals: input.hasReferrals, ...(input.search ? { attributeKey: input.attributeKey, attributeValue: input.attributeValue } : {}) })}
    ), page AS (
      SELECT "id", "sortKey" FROM matches page ORDER BY ${pageOrder} LIMIT ${paging.pageSize} OFFSET ${paging.skip}
    )
    SELECT (SELECT "n" FROM counted) AS "foundCount", (SELECT count(*) FROM matches)::int AS "matchCount",
      EXISTS (SELECT FROM "Project" WHERE "id" = ${projectId} AND "organizationId" = ${organizationId}) AS "ownProject",
      ${APP_USER_COLUMNS}
    FROM (VALUES (1)) AS one
    LEFT JOIN (page JOIN "AppUser" u ON u."id" = page."id" ${APP_USER_JOINS}) ON true
    ORDER BY ${pageOrder}`;
  const [first] = rows;
  if (!first?.ownProject) throw notFound("Project");
  if (first.foundCount > LIST_COUNT_MAX) return null;
  const items = rows.flatMap(({ id, foundCount: _found, matchCount: _count, ownProject: _own, ...user }) => (id === null ? [] : [toAppUserDto({ ...user, id })]));
  return cappedPage(items, paging, first.matchCount, paging.skip + items.length < first.matchCount);
}

/**
 * The parts of a search (else the attribute filter), each the (id, createdAt) of at most
 * LIST_COUNT_MAX + 1 users read from one index (see searchCondition); a user may be in several.
 * E-mail and name are read from their indexes alone (migration 20261129070000).
 */
function foundUsers(projectId: string, input: ListAppUsersInput): Prisma.Sql[] {
  const part = (condition: Prisma.Sql) =>
    Prisma.sql`(SELECT u."id", u."createdAt" FROM "AppUser" u WHERE u."projectId" = ${projectId} AND ${condition} LIMIT ${LIST_COUNT_MAX + 1})`;
  const attribute = attributeFilter(input);
  if (!input.search) return [part(Prisma.sql`u."attributes" @> ${JSON.stringify({ [attribute!.key]: attribute!.value })}::jsonb`)];
  const prefix = prefixPattern(input.search);
  return [
    part(Prisma.sql`u."emailSearch" LIKE lower(${prefix})`),
    part(Prisma.sql`u."nameSearch" LIKE lower(${prefix})`),
    part(Prisma.sql`u."referralCode" = ${input.search}`),
    part(Prisma.sql`u."clientProvidedId" ILIKE ${containsPattern(input.search)}`),
  ];
}

/** Filters that keep only some of the users foundUsers finds: with one, more found than the cap says nothing of the matches. */
const narrowed = (input: ListAppUsersInput) => input.hasReferrals !== undefined || Boolean(input.search && attributeFilter(input));

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
 * per project, on the lower-cased value the database keeps in emailSearch and nameSearch: migration
 * 20261129070000), so the matches are gathered from indexes, never by reading the project's users.
 */
function searchCondition(term: string): Prisma.Sql {
  const prefix = prefixPattern(term);
  return Prisma.sql`u."clientProvidedId" ILIKE ${containsPattern(term)} OR u."referralCode" = ${term}
    OR u."emailSearch" LIKE lower(${prefix}) OR u."nameSearch" LIKE lower(${prefix})`;
}

/** The attribute filter when both halves are given (the schema refuses one alone). */
function attributeFilter({ attributeKey: key, attributeValue: value }: Pick<ListAppUsersInput, "attributeKey" | "attributeValue">) {
  return key === undefined || value === undefined ? null : { key, value };
}

const direction = (order: SortOrder) => Prisma.raw(order === "asc" ? "ASC" : "DESC");

/** The sort's direction; never-seen users go last either way. The id that follows keeps pages stable between requests. */
const order = (input: ListAppUsersInput) =>
  Prisma.sql`${direction(input.sortOrder)} ${input.sortBy === "lastSeenAt" ? Prisma.raw("NULLS LAST") : Prisma.empty}`;
