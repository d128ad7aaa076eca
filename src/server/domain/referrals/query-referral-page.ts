import type { Prisma, TrackingStatus } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { pageWindow, toPage, type PageEnvelope, type PagingInput } from "@/server/domain/paging";
import { toReferralDto, withParties, type ReferralDto } from "@/server/domain/referrals/to-referral-dto";

export type ReferralFilter = PagingInput & {
  status?: TrackingStatus;
};

/** A page of tracking items, newest first; the shared body of the project and per-user lists. */
export async function queryReferralPage(
  db: Db,
  where: Prisma.ReferralTrackingWhereInput,
  filter: ReferralFilter,
): Promise<PageEnvelope<ReferralDto>> {
  const paging = pageWindow(filter);
  const fullWhere = filter.status ? { ...where, status: filter.status } : where;
  const [rows, totalCount] = await Promise.all([
    db.referralTracking.findMany({
      where: fullWhere,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: paging.skip,
      take: paging.pageSize,
      include: withParties,
    }),
    db.referralTracking.count({ where: fullWhere }),
  ]);
  return toPage(rows.map(toReferralDto), paging, totalCount);
}
