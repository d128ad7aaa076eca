import { Prisma, type ReferralTracking } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { planned } from "@/server/db/prepared-statements";
import { pageWindow, toPage, type PageEnvelope, type PagingInput } from "@/server/domain/paging";
import { toReferralDto, type ReferralDto } from "@/server/domain/referrals/to-referral-dto";

type Row = ReferralTracking & { referrerClientId: string | null; refereeClientId: string | null };

/**
 * A page of the tracking items `where` selects (a condition on `t`, see referralsWhere), newest first,
 * with the count of them all: the shared body of the project's and an app user's lists. The page is
 * chosen by id first and only its rows are joined to their parties.
 */
export async function queryReferralPage(db: Db, where: Prisma.Sql, input: PagingInput): Promise<PageEnvelope<ReferralDto>> {
  const paging = pageWindow(input);
  const [rows, [counted]] = await Promise.all([
    planned<Row>(db)`
      WITH page AS (
        SELECT t."id", t."createdAt" FROM "ReferralTracking" t WHERE ${where}
        ORDER BY t."createdAt" DESC, t."id" DESC LIMIT ${paging.pageSize} OFFSET ${paging.skip}
      )
      SELECT t.*, r."clientProvidedId" AS "referrerClientId", e."clientProvidedId" AS "refereeClientId"
      FROM page JOIN "ReferralTracking" t ON t."id" = page."id"
        LEFT JOIN "AppUser" r ON r."id" = t."referrerId" LEFT JOIN "AppUser" e ON e."id" = t."refereeId"
      ORDER BY page."createdAt" DESC, page."id" DESC`,
    planned<{ count: number }>(db)`SELECT count(*)::int AS "count" FROM "ReferralTracking" t WHERE ${where}`,
  ]);
  const items = rows.map(({ referrerClientId, refereeClientId, ...row }) =>
    toReferralDto({
      ...row,
      referrer: referrerClientId === null ? null : { clientProvidedId: referrerClientId },
      referee: refereeClientId === null ? null : { clientProvidedId: refereeClientId },
    }),
  );
  return toPage(items, paging, counted?.count ?? 0);
}
