import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { toAppUserDto, withReferrer, type AppUserDto } from "@/server/domain/app-users/to-app-user-dto";
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
  const { search } = input;
  const project = await getOwnedProject(db, organizationId, projectId);
  const where: Prisma.AppUserWhereInput = {
    projectId: project.id,
    ...(input.hasReferrals === undefined ? {} : { totalReferralsGiven: input.hasReferrals ? { gt: 0 } : 0 }),
    ...(search ? { OR: searchConditions(search) } : {}),
  };
  const [rows, totalCount] = await Promise.all([
    db.appUser.findMany({ where, orderBy: orderBy(input.sortBy, input.sortOrder), skip: paging.skip, take: paging.pageSize, include: withReferrer }),
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

/** Never-seen users go last either way; the id tie-break keeps pages stable between requests. */
function orderBy(field: AppUserSortField, order: SortOrder): Prisma.AppUserOrderByWithRelationInput[] {
  const primary: Prisma.AppUserOrderByWithRelationInput =
    field === "lastSeenAt" ? { lastSeenAt: { sort: order, nulls: "last" } } : { [field]: order };
  return [primary, { id: order }];
}
