import type { Db } from "@/server/db/client";
import { prepared } from "@/server/db/prepared-statements";

export type LandingReferral = {
  projectId: string;
  referralCode: string;
  /** The app's display name, else the project's name. */
  appName: string;
  iconUrl: string | null;
  appStoreUrl: string | null;
  playStoreUrl: string | null;
  referralRedirectLink: string | null;
};

/**
 * What the landing page shows for a referral code of a Mobile project: one query (the referrer by
 * code joined to its project), the page's only read. null for an unknown project, another project's
 * code or a Web project alike, so the page says nothing about which.
 */
export async function findLandingReferral(db: Db, projectId: string, referralCode: string): Promise<LandingReferral | null> {
  const rows = await prepared<LandingReferral>(db)`
    SELECT p."id" AS "projectId", u."referralCode", COALESCE(NULLIF(BTRIM(p."appName"), ''), p."name") AS "appName",
           p."iconUrl", p."appStoreUrl", p."playStoreUrl", p."referralRedirectLink"
    FROM "AppUser" u JOIN "Project" p ON p."id" = u."projectId"
    WHERE u."projectId" = ${projectId} AND u."referralCode" = ${referralCode} AND p."appType" = 'Mobile'`;
  return rows[0] ?? null;
}
