import { Prisma, type TrackingStatus } from "@/generated/prisma/client";
import type { ReferralSearch } from "@/lib/schemas/referrals";
import { trackingIdsNamedBy } from "./tracking-ids-named-by";

export type ReferralConditions = Partial<Omit<ReferralSearch, "status">> & { status?: TrackingStatus | undefined };

/**
 * The condition on `t` ("ReferralTracking") of the items a filter selects in a project: the one
 * reading of the referrals' filter, for their list and their CSV export. A status and a date range
 * read the (projectId, status, createdAt) or (projectId, createdAt) index; a search term the primary
 * key, through trackingIdsNamedBy.
 */
export function referralsWhere(projectId: string, filter: ReferralConditions): Prisma.Sql {
  const conditions = [Prisma.sql`t."projectId" = ${projectId}`];
  if (filter.search) conditions.push(Prisma.sql`t."id" = ANY(${trackingIdsNamedBy(projectId, filter.search)})`);
  if (filter.status) conditions.push(Prisma.sql`t."status" = ${filter.status}::"TrackingStatus"`);
  if (filter.from) conditions.push(Prisma.sql`t."createdAt" >= ${new Date(filter.from)}`);
  if (filter.to) conditions.push(Prisma.sql`t."createdAt" < ${new Date(filter.to)}`);
  return Prisma.join(conditions, " AND ");
}
