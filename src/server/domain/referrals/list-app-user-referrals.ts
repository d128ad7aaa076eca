import { Prisma, type TrackingStatus } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import type { ReferralDirection } from "@/lib/schemas/referrals";
import { notFound } from "@/server/domain/errors";
import type { CappedPage, PagingInput } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { queryReferralPage } from "@/server/domain/referrals/query-referral-page";
import { referralsWhere } from "@/server/domain/referrals/select-referrals";
import type { ReferralDto } from "@/server/domain/referrals/to-referral-dto";

export type ListAppUserReferralsInput = PagingInput & {
  status?: TrackingStatus | undefined;
  uniqueId: string;
  /** given: the user is the referrer; received: the user is the referee. */
  direction: ReferralDirection;
};

export async function listAppUserReferrals(
  db: Db,
  organizationId: string,
  projectId: string,
  input: ListAppUserReferralsInput,
): Promise<CappedPage<ReferralDto>> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const user = await db.appUser.findFirst({ where: { id: input.uniqueId, projectId: project.id }, select: { id: true } });
  if (!user) throw notFound("App user");
  const party = input.direction === "given" ? Prisma.sql`t."referrerId" = ${user.id}` : Prisma.sql`t."refereeId" = ${user.id}`;
  return queryReferralPage(db, Prisma.sql`${referralsWhere(project.id, { status: input.status })} AND ${party}`, input);
}
