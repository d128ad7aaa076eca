import type { Db } from "@/server/db/client";
import type { ReferralDirection } from "@/lib/schemas/referrals";
import { notFound } from "@/server/domain/errors";
import type { PageEnvelope } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { queryReferralPage, type ReferralFilter } from "@/server/domain/referrals/query-referral-page";
import type { ReferralDto } from "@/server/domain/referrals/to-referral-dto";

export type ListAppUserReferralsInput = ReferralFilter & {
  uniqueId: string;
  /** given: the user is the referrer; received: the user is the referee. */
  direction: ReferralDirection;
};

export async function listAppUserReferrals(
  db: Db,
  organizationId: string,
  projectId: string,
  input: ListAppUserReferralsInput,
): Promise<PageEnvelope<ReferralDto>> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const user = await db.appUser.findFirst({ where: { id: input.uniqueId, projectId: project.id }, select: { id: true } });
  if (!user) throw notFound("App user");
  const where = input.direction === "given" ? { referrerId: user.id } : { refereeId: user.id };
  return queryReferralPage(db, where, input);
}
