import { Prisma, type RewardEnvironment, type RewardEventOutcome } from "@/generated/prisma/client";
import type { RewardEventSearch } from "@/lib/schemas/referrals";
import type { Db } from "@/server/db/client";
import { planned } from "@/server/db/prepared-statements";
import { pageWindow, toPage, type PageEnvelope, type PagingInput } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import type { RewardEventDto } from "./get-referral";
import { trackingIdsNamedBy } from "./tracking-ids-named-by";

/** A reward event with the tracking item it was reported for and that item's parties. */
export type RewardEventItemDto = RewardEventDto & {
  trackingId: string | null;
  referrerId: string | null;
  refereeId: string | null;
  referrerUniqueId: string | null;
  refereeUniqueId: string | null;
};

type Row = {
  id: string;
  trackingId: string | null;
  eventName: string | null;
  environment: RewardEnvironment | null;
  outcome: RewardEventOutcome;
  reason: string | null;
  createdAt: Date;
  referrerUniqueId: string | null;
  referrerId: string | null;
  refereeUniqueId: string | null;
  refereeId: string | null;
};

/**
 * The condition on `v` ("RewardEvent") of a filter. The project, creation time, outcome and event name
 * are all in the (projectId, createdAt, outcome, eventName, reason) index; a search term reads the
 * trackingId index through trackingIdsNamedBy.
 */
function rewardEventsWhere(projectId: string, filter: RewardEventSearch): Prisma.Sql {
  const conditions = [Prisma.sql`v."projectId" = ${projectId}`];
  if (filter.search) conditions.push(Prisma.sql`v."trackingId" = ANY(${trackingIdsNamedBy(projectId, filter.search)})`);
  if (filter.event) conditions.push(Prisma.sql`v."eventName" = ${filter.event}`);
  if (filter.outcome) conditions.push(Prisma.sql`v."outcome" = ${filter.outcome}::"RewardEventOutcome"`);
  if (filter.from) conditions.push(Prisma.sql`v."createdAt" >= ${new Date(filter.from)}`);
  if (filter.to) conditions.push(Prisma.sql`v."createdAt" < ${new Date(filter.to)}`);
  return Prisma.join(conditions, " AND ");
}

/**
 * Every reward event reported in the project that the filter selects, newest first, across its
 * referrals: what support reads when "the reward never arrived" (was the event reported at all, under
 * which name, and why was it refused). The page is chosen by id first; only its rows are joined.
 */
export async function listRewardEvents(
  db: Db,
  organizationId: string,
  projectId: string,
  input: RewardEventSearch & PagingInput,
): Promise<PageEnvelope<RewardEventItemDto>> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const paging = pageWindow(input);
  const where = rewardEventsWhere(project.id, input);
  const [rows, [counted]] = await Promise.all([
    planned<Row>(db)`
      WITH page AS (
        SELECT v."id", v."createdAt" FROM "RewardEvent" v WHERE ${where}
        ORDER BY v."createdAt" DESC, v."id" DESC LIMIT ${paging.pageSize} OFFSET ${paging.skip}
      )
      SELECT v."id", v."trackingId", v."eventName", v."environment", v."outcome", v."reason", v."createdAt",
        r."id" AS "referrerUniqueId", r."clientProvidedId" AS "referrerId", e."id" AS "refereeUniqueId", e."clientProvidedId" AS "refereeId"
      FROM page JOIN "RewardEvent" v ON v."id" = page."id"
        LEFT JOIN "ReferralTracking" t ON t."id" = v."trackingId"
        LEFT JOIN "AppUser" r ON r."id" = t."referrerId" LEFT JOIN "AppUser" e ON e."id" = t."refereeId"
      ORDER BY page."createdAt" DESC, page."id" DESC`,
    planned<{ count: number }>(db)`SELECT count(*)::int AS "count" FROM "RewardEvent" v WHERE ${where}`,
  ]);
  const items = rows.map((row) => ({
    id: row.id,
    eventName: row.eventName,
    environment: row.environment,
    outcome: row.outcome,
    reason: row.reason,
    at: row.createdAt.toISOString(),
    trackingId: row.trackingId,
    referrerId: row.referrerId,
    refereeId: row.refereeId,
    referrerUniqueId: row.referrerUniqueId,
    refereeUniqueId: row.refereeUniqueId,
  }));
  return toPage(items, paging, counted?.count ?? 0);
}
