import { Prisma } from "@/generated/prisma/client";
import type { ActivitySearch } from "@/lib/schemas/activity";
import type { Db } from "@/server/db/client";
import { containsPattern } from "@/server/db/like-pattern";
import { planned } from "@/server/db/prepared-statements";
import { toActivityDto, type ActivityDto } from "@/server/domain/activity/activity-dto";
import { pageWindow, toPage, type PageEnvelope, type PagingInput } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { trackingIdsNamedBy } from "@/server/domain/referrals/tracking-ids-named-by";

type Row = { id: string; type: string; description: string; appUserId: string | null; trackingId: string | null; createdAt: Date };

/**
 * The search term's condition on `a` ("Activity"). A term that is an id of the project (a tracking id,
 * or an app user's client id) selects by id: that referral's entries, or the user's own (their
 * timeline) and those of their referrals, as referrer or referee; through the appUserId and trackingId
 * indexes. Any other term is text, found in the descriptions (any case) by reading the project's
 * entries: a support person's last resort, not a path anything calls often.
 */
async function searchCondition(db: Db, projectId: string, term: string): Promise<Prisma.Sql> {
  const [known] = await planned<{ userId: string | null; tracked: boolean }>(db)`
    SELECT (SELECT u."id" FROM "AppUser" u WHERE u."projectId" = ${projectId} AND u."clientProvidedId" = ${term}) AS "userId",
      EXISTS (SELECT FROM "ReferralTracking" t WHERE t."id" = ${term} AND t."projectId" = ${projectId}) AS "tracked"`;
  if (known?.userId) return Prisma.sql`(a."appUserId" = ${known.userId} OR a."trackingId" = ANY(${trackingIdsNamedBy(projectId, term)}))`;
  if (known?.tracked) return Prisma.sql`a."trackingId" = ${term}`;
  return Prisma.sql`a."description" ILIKE ${containsPattern(term)}`;
}

/** The project's activity the filter selects, newest first. */
export async function listActivity(
  db: Db,
  organizationId: string,
  projectId: string,
  input: ActivitySearch & PagingInput,
): Promise<PageEnvelope<ActivityDto>> {
  const paging = pageWindow(input);
  const project = await getOwnedProject(db, organizationId, projectId);
  const conditions = [Prisma.sql`a."projectId" = ${project.id}`];
  if (input.type) conditions.push(Prisma.sql`a."type" = ${input.type}`);
  if (input.search) conditions.push(await searchCondition(db, project.id, input.search));
  const where = Prisma.join(conditions, " AND ");
  const [rows, [counted]] = await Promise.all([
    planned<Row>(db)`
      SELECT a."id", a."type", a."description", a."appUserId", a."trackingId", a."createdAt" FROM "Activity" a WHERE ${where}
      ORDER BY a."createdAt" DESC, a."id" DESC LIMIT ${paging.pageSize} OFFSET ${paging.skip}`,
    planned<{ count: number }>(db)`SELECT count(*)::int AS "count" FROM "Activity" a WHERE ${where}`,
  ]);
  return toPage(rows.map(toActivityDto), paging, counted?.count ?? 0);
}
