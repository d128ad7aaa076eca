import type { Db } from "@/server/db/client";
import { toLinkClickColumns, type ClickFingerprint } from "./build-fingerprint";
import { prepared } from "@/server/db/prepared-statements";

export type LinkClickInput = {
  /** The id the landing page was rendered with (clickPayloadSchema's clickId). */
  clickId: string;
  projectId: string;
  referralCode: string;
  rewardEventName: string | null;
  fingerprint: ClickFingerprint;
  userAgent: string | null;
};

const MAX_USER_AGENT = 512;

/**
 * Records a landing-page click: one statement that inserts it only if the code belongs to the
 * Mobile project (so nobody fills the matcher's window with clicks on codes that do not exist), and
 * ignores a click id already recorded (a repeated beacon); a recorded click also counts in its day's
 * LinkClickDay. `unknown_referral`: no such code there.
 */
export async function recordLinkClick(db: Db, input: LinkClickInput): Promise<"recorded" | "duplicate" | "unknown_referral"> {
  const c = toLinkClickColumns(input.fingerprint);
  const userAgent = input.userAgent?.slice(0, MAX_USER_AGENT) ?? null;
  const [result] = await prepared<{ known: boolean; inserted: boolean }>(db)`
    WITH referral AS (
      SELECT u."projectId", u."referralCode"
      FROM "AppUser" u JOIN "Project" p ON p."id" = u."projectId"
      WHERE u."projectId" = ${input.projectId} AND u."referralCode" = ${input.referralCode} AND p."appType" = 'Mobile'
    ), inserted AS (
      INSERT INTO "LinkClick" ("id", "projectId", "referralCode", "rewardEventName", "os", "osVersion", "screenSize", "timezone", "locale",
                               "ipAddress", "userAgent", "createdAt")
      SELECT ${input.clickId}, "projectId", "referralCode", ${input.rewardEventName}, ${c.os}, ${c.osVersion}, ${c.screenSize}, ${c.timezone},
             ${c.locale}, ${c.ipAddress}, ${userAgent}, ${input.fingerprint.createdAt}
      FROM referral
      ON CONFLICT ("id") DO NOTHING
      RETURNING "projectId", "createdAt"
    ), counted AS (
      -- The day's count outlives the click (purged after its match window): the overview's funnel reads it.
      INSERT INTO "LinkClickDay" ("projectId", "day", "clicks")
      SELECT "projectId", "createdAt"::date, 1 FROM inserted
      ON CONFLICT ("projectId", "day") DO UPDATE SET "clicks" = "LinkClickDay"."clicks" + 1
    )
    SELECT EXISTS (SELECT 1 FROM referral) AS "known", EXISTS (SELECT 1 FROM inserted) AS "inserted"`;
  if (!result?.known) return "unknown_referral";
  return result.inserted ? "recorded" : "duplicate";
}
