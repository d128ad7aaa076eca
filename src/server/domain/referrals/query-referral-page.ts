import { Prisma, type ReferralTracking } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { planned } from "@/server/db/prepared-statements";
import { LIST_COUNT_MAX } from "@/lib/schemas/common";
import { cappedPage, pageWindow, type CappedPage, type PagingInput } from "@/server/domain/paging";
import { toReferralDto, type ReferralDto } from "@/server/domain/referrals/to-referral-dto";

type Row = ReferralTracking & { referrerClientId: string | null; refereeClientId: string | null };

/**
 * A page of the tracking items `where` selects (a condition on `t`, see referralsWhere), newest first,
 * with their count up to LIST_COUNT_MAX + 1 (an exact count read every item of a large project: about
 * 80 ms at 250,000): the shared body of the project's and an app user's lists. The page is chosen by
 * id first (one row more than the page, so hasNextPage is exact) and only its rows are joined to their
 * parties.
 */
export async function queryReferralPage(db: Db, where: Prisma.Sql, input: PagingInput): Promise<CappedPage<ReferralDto>> {
  const paging = pageWindow(input);
  const [rows, [counted]] = await Promise.all([
    planned<Row>(db)`
      WITH page AS (
        SELECT t."id", t."createdAt" FROM "ReferralTracking" t WHERE ${where}
        ORDER BY t."createdAt" DESC, t."id" DESC LIMIT ${paging.pageSize + 1} OFFSET ${paging.skip}
      )
      SELECT t.*, r."clientProvidedId" AS "referrerClientId", e."clientProvidedId" AS "refereeClientId"
      FROM page JOIN "ReferralTracking" t ON t."id" = page."id"
        LEFT JOIN "AppUser" r ON r."id" = t."referrerId" LEFT JOIN "AppUser" e ON e."id" = t."refereeId"
      ORDER BY page."createdAt" DESC, page."id" DESC`,
    planned<{ count: number }>(db)`SELECT count(*)::int AS "count" FROM (SELECT 1 FROM "ReferralTracking" t WHERE ${where} LIMIT ${LIST_COUNT_MAX + 1}) AS matches`,
  ]);
  const items = rows.slice(0, paging.pageSize).map(({ referrerClientId, refereeClientId, ...row }) =>
    toReferralDto({
      ...row,
      referrer: referrerClientId === null ? null : { clientProvidedId: referrerClientId },
      referee: refereeClientId === null ? null : { clientProvidedId: refereeClientId },
    }),
  );
  return cappedPage(items, paging, counted?.count ?? 0, rows.length > paging.pageSize);
}
