import type { ReferralSearch } from "@/lib/schemas/referrals";
import type { Db } from "@/server/db/client";
import type { CappedPage, PagingInput } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { queryReferralPage } from "@/server/domain/referrals/query-referral-page";
import { referralsWhere } from "@/server/domain/referrals/select-referrals";
import type { ReferralDto } from "@/server/domain/referrals/to-referral-dto";

/** The project's tracking items the filter selects (search term, status, creation time), newest first. */
export async function listReferrals(
  db: Db,
  organizationId: string,
  projectId: string,
  input: ReferralSearch & PagingInput,
): Promise<CappedPage<ReferralDto>> {
  const project = await getOwnedProject(db, organizationId, projectId);
  return queryReferralPage(db, referralsWhere(project.id, input), input);
}
