import type { Prisma, TrackingStatus } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { invalidField } from "@/server/domain/errors";
import { parsePaging, toPage, type PageEnvelope, type PagingInput } from "@/server/domain/paging";
import { toReferralDto, withParties, type ReferralDto } from "@/server/domain/referrals/to-referral-dto";

export const TRACKING_STATUSES = ["Pending", "Completed", "Failed"] as const satisfies readonly TrackingStatus[];

export type ReferralFilter = PagingInput & {
  /** Pending, Completed or Failed, matched case-insensitively. */
  status?: string | null;
};

/** A page of tracking items, newest first; the shared body of the project and per-user lists. */
export async function queryReferralPage(
  db: Db,
  where: Prisma.ReferralTrackingWhereInput,
  filter: ReferralFilter,
): Promise<PageEnvelope<ReferralDto>> {
  const paging = parsePaging(filter);
  const status = parseStatus(filter.status);
  const fullWhere = status ? { ...where, status } : where;
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

function parseStatus(value: string | null | undefined): TrackingStatus | null {
  if (value == null || value === "") return null;
  const status = TRACKING_STATUSES.find((s) => s.toLowerCase() === value.toLowerCase());
  if (!status) throw invalidField("status", "enum", `Status must be one of: ${TRACKING_STATUSES.join(", ")}.`);
  return status;
}
