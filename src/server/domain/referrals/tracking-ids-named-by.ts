import { Prisma } from "@/generated/prisma/client";
import { emailTerm, shortIdTerm } from "@/lib/schemas/search";

/**
 * The tracking ids a search term names in a project, as an array expression: the term itself (taken
 * as a tracking id), the item whose short id (the first 8 characters the tables show) the term is, and
 * the items whose referrer or referee has the term as client id or, for a term with an `@`, as e-mail
 * attribute (any case). The one reading of "what names a referral" for the referrals, the reward
 * events, the deliveries and the activity feed. Gathered first, so each table is then read through its
 * own tracking id index rather than joined row by row; each part reads an index (the short id one is an expression
 * index of migration 20261129060000, the e-mail one 20261129070000's) and is there only for a term that
 * can match it, so other terms keep their plans.
 */
export const trackingIdsNamedBy = (projectId: string, term: string): Prisma.Sql => {
  const parties = partiesNamedBy(projectId, term);
  const short = shortIdTerm(term);
  return Prisma.sql`ARRAY(
    SELECT ${term}::text
    ${short ? Prisma.sql`UNION ALL SELECT t."id" FROM "ReferralTracking" t WHERE t."projectId" = ${projectId} AND left(t."id", 8) = ${short}` : Prisma.empty}
    UNION ALL
    SELECT t."id" FROM "AppUser" u JOIN "ReferralTracking" t ON t."referrerId" = u."id" WHERE ${parties}
    UNION ALL
    SELECT t."id" FROM "AppUser" u JOIN "ReferralTracking" t ON t."refereeId" = u."id" WHERE ${parties})`;
};

/** The condition on `u` (AppUser) of the users a term names as a party: client id exactly, or e-mail attribute in any case. */
function partiesNamedBy(projectId: string, term: string): Prisma.Sql {
  const email = emailTerm(term);
  const byEmail = email ? Prisma.sql`OR u."emailSearch" = lower(${email})` : Prisma.empty;
  return Prisma.sql`u."projectId" = ${projectId} AND (u."clientProvidedId" = ${term} ${byEmail})`;
}
