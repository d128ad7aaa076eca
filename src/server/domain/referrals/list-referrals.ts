import type { Db } from "@/server/db/client";
import type { PageEnvelope } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { queryReferralPage, type ReferralFilter } from "@/server/domain/referrals/query-referral-page";
import type { ReferralDto } from "@/server/domain/referrals/to-referral-dto";

/** The project's tracking items, newest first, optionally of one status. */
export async function listReferrals(
  db: Db,
  organizationId: string,
  projectId: string,
  input: ReferralFilter,
): Promise<PageEnvelope<ReferralDto>> {
  const project = await getOwnedProject(db, organizationId, projectId);
  return queryReferralPage(db, { projectId: project.id }, input);
}
