import { Prisma } from "@/generated/prisma/client";

/**
 * The tracking ids a search term names in a project, as an array expression: the term itself (taken
 * as a tracking id), and the items whose referrer or referee has the term as client id. The one
 * reading of "a tracking id, or the referrer's or referee's client id, exactly" for the referrals,
 * the reward events, the deliveries and the activity feed. Gathered first, so each table is then
 * read through its own tracking id index rather than joined row by row.
 */
export const trackingIdsNamedBy = (projectId: string, term: string): Prisma.Sql => Prisma.sql`ARRAY(
    SELECT ${term}::text
    UNION ALL
    SELECT t."id" FROM "AppUser" u JOIN "ReferralTracking" t ON t."referrerId" = u."id"
    WHERE u."projectId" = ${projectId} AND u."clientProvidedId" = ${term}
    UNION ALL
    SELECT t."id" FROM "AppUser" u JOIN "ReferralTracking" t ON t."refereeId" = u."id"
    WHERE u."projectId" = ${projectId} AND u."clientProvidedId" = ${term})`;
