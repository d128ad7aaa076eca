import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { toAppUserDto, withReferrer, type AppUserDto } from "@/server/domain/app-users/to-app-user-dto";
import { invalidField } from "@/server/domain/errors";
import { parsePaging, toPage, type PageEnvelope, type PagingInput } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { APP_USER_SORT_FIELDS, DEFAULT_APP_USER_SORT, SORT_ORDERS } from "./app-user-sort";

export { APP_USER_SORT_FIELDS, DEFAULT_APP_USER_SORT, SORT_ORDERS };

export const SEARCH_MAX_LENGTH = 100;

export type ListAppUsersInput = PagingInput & {
  search?: string | null;
  sortBy?: string | null;
  sortOrder?: string | null;
  /** true: users who brought at least one tracked referral (totalReferralsGiven > 0); false: none. */
  hasReferrals?: boolean | null;
};

export async function listAppUsers(
  db: Db,
  organizationId: string,
  projectId: string,
  input: ListAppUsersInput = {},
): Promise<PageEnvelope<AppUserDto>> {
  const paging = parsePaging(input);
  const orderBy = parseSort(input.sortBy, input.sortOrder);
  const search = parseSearch(input.search);
  const project = await getOwnedProject(db, organizationId, projectId);
  const where: Prisma.AppUserWhereInput = {
    projectId: project.id,
    ...(input.hasReferrals == null ? {} : { totalReferralsGiven: input.hasReferrals ? { gt: 0 } : 0 }),
    ...(search ? { OR: searchConditions(search) } : {}),
  };
  const [rows, totalCount] = await Promise.all([
    db.appUser.findMany({ where, orderBy, skip: paging.skip, take: paging.pageSize, include: withReferrer }),
    db.appUser.count({ where }),
  ]);
  return toPage(rows.map(toAppUserDto), paging, totalCount);
}

/**
 * A case-insensitive substring of the client id, or the exact referral code (codes are
 * case-sensitive). Attribute values are not searched: a substring match inside JSON cannot use an
 * index and would scan every row of a large project.
 */
function searchConditions(search: string): Prisma.AppUserWhereInput[] {
  return [{ clientProvidedId: { contains: escapeLike(search), mode: "insensitive" } }, { referralCode: search }];
}

/** Prisma passes `contains` to ILIKE as is, so the user's % and _ would act as wildcards. */
const escapeLike = (term: string) => term.replace(/[\\%_]/g, "\\$&");

function parseSearch(search: string | null | undefined): string | null {
  const term = search?.trim() ?? "";
  if (term.length > SEARCH_MAX_LENGTH) {
    throw invalidField("search", "max_length", `Search must be at most ${SEARCH_MAX_LENGTH} characters.`);
  }
  return term || null;
}

function parseSort(sortBy: string | null | undefined, sortOrder: string | null | undefined) {
  const field = sortBy ? APP_USER_SORT_FIELDS.find((f) => f.toLowerCase() === sortBy.toLowerCase()) : DEFAULT_APP_USER_SORT.sortBy;
  if (!field) throw invalidField("sortBy", "enum", `SortBy must be one of: ${APP_USER_SORT_FIELDS.join(", ")}.`);
  const order = sortOrder ? SORT_ORDERS.find((o) => o === sortOrder.toLowerCase()) : DEFAULT_APP_USER_SORT.sortOrder;
  if (!order) throw invalidField("sortOrder", "enum", "SortOrder must be asc or desc.");
  // Never-seen users go last either way; the id tie-break keeps pages stable between requests.
  const primary: Prisma.AppUserOrderByWithRelationInput =
    field === "lastSeenAt" ? { lastSeenAt: { sort: order, nulls: "last" } } : { [field]: order };
  return [primary, { id: order }];
}
