import { Prisma, type TrackingStatus } from "@/generated/prisma/client";
import type { ReferralSearch } from "@/lib/schemas/referrals";
import { trackingIdsNamedBy } from "./tracking-ids-named-by";

export type ReferralConditions = Partial<Omit<ReferralSearch, "status">> & { status?: TrackingStatus | undefined };

/**
 * The condition on `t` ("ReferralTracking") of the items a filter selects in a project: the one
 * reading of the referrals' filter, for their list and their CSV export. A date range reads the
 * (projectId, createdAt) index, a Failed or Revoked filter its partial index (statusCondition), a
 * search term the primary key through trackingIdsNamedBy.
 */
export function referralsWhere(projectId: string, filter: ReferralConditions): Prisma.Sql {
  const conditions = [Prisma.sql`t."projectId" = ${projectId}`];
  if (filter.search) conditions.push(Prisma.sql`t."id" = ANY(${trackingIdsNamedBy(projectId, filter.search)})`);
  if (filter.status) conditions.push(statusCondition(filter.status));
  if (filter.from) conditions.push(Prisma.sql`t."createdAt" >= ${new Date(filter.from)}`);
  if (filter.to) conditions.push(Prisma.sql`t."createdAt" < ${new Date(filter.to)}`);
  return Prisma.join(conditions, " AND ");
}

/**
 * Items of one status. No index holds the status (a claim is written in place: migration
 * 20261129210000_claim_in_place); Failed and Revoked items, rare and what support looks for, are found
 * by partial indexes on failureReason and revokedAt, which CHECK constraints keep set on every item of
 * those statuses, so the condition names the index's predicate beside the status.
 */
export function statusCondition(status: TrackingStatus): Prisma.Sql {
  if (status === "Failed") return Prisma.sql`t."status" = 'Failed' AND t."failureReason" IS NOT NULL`;
  if (status === "Revoked") return Prisma.sql`t."status" = 'Revoked' AND t."revokedAt" IS NOT NULL`;
  return Prisma.sql`t."status" = ${status}::"TrackingStatus"`;
}
