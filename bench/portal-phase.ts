/** The referrer's own summary (issue 36) for one referrer with many referrals: domain, SDK endpoint and hosted page. */
import type { Db } from "@/server/db/client";
import { getConfig } from "@/server/config";
import { handleSdkRequest } from "@/server/api/rest/handle-sdk-request";
import { createProject } from "@/server/domain/projects/create-project";
import { createPortalSession } from "@/server/domain/portal/portal-sessions";
import { getReferralSummary } from "@/server/domain/portal/get-referral-summary";
import { fromFetchRequest } from "@/server/http/api-exchange";
import { answerPortal } from "@/server/http/portal/answer-portal";
import { testServices } from "@/test/config";
import { createOrgWithApiKey } from "@/test/rest";
import { withClient } from "./postgres";
import { seedAppUsers, seededAppUserIdSql, seededClientId, withIndexesRebuilt } from "./seed";
import { summarize, timeSequential, type LatencySummary } from "./stats";

const PREFIX = "por_";
const WARMUP_RUNS = 5;

export type PortalFixture = { organizationId: string; projectId: string; secret: string; referrals: number; seedMs: number; referrerId: string; referrerClientId: string };
export type PortalCaseResult = { name: string; latency: LatencySummary };

/**
 * One project whose first app user referred `referrals` others (one tracking item each, over 180 days):
 * 60% rewarded (with their reward history), 5% held for review, 25% pending, 10% arrivals not signed up;
 * four milestones, two of them reached. Seeded in SQL, then VACUUM ANALYZE.
 */
export async function preparePortalProject(db: Db, url: string, referrals: number): Promise<PortalFixture> {
  const { org } = await createOrgWithApiKey(db);
  const { project, secret } = await createProject(db, org.id, { name: "Bench portal", appType: "Web", referralRedirectLink: "https://shop.example.com/join" }, getConfig().urlRules);
  const campaign = await db.campaign.update({
    where: { projectId: project.id },
    data: { milestones: [{ referrals: 10, name: "Bronze" }, { referrals: 100, name: "Silver" }, { referrals: 10_000, name: "Gold" }, { referrals: 50_000, name: "Platinum" }], portal: { friendNameAttribute: "plan" } },
  });
  const started = performance.now();
  const referrer = seededAppUserIdSql("$1", "1");
  await withClient(url, async (c) => {
    await withIndexesRebuilt(c, ["AppUser", "AppUserCounters", "ReferralTracking", "RewardHistory", "RewardReview"], async () => {
      await seedAppUsers(c, project.id, referrals + 1, PREFIX);
      const kind = `(n % 20)`;
      await c.query(
        `INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "refereeId", "referralCode", "status", "rewardClaimed", "rewardClaimedAt", "createdAt", "updatedAt")
         SELECT md5($1 || ':t:' || n)::uuid::text, $1, $2, ${referrer}, CASE WHEN ${kind} < 2 THEN NULL ELSE ${seededAppUserIdSql("$1", "n")} END, 'BENCH0',
           CASE WHEN ${kind} >= 8 THEN 'Completed' ELSE 'Pending' END::"TrackingStatus", ${kind} >= 8,
           CASE WHEN ${kind} >= 8 THEN created + interval '1 day' END, created, created
         FROM generate_series(2, $3::int + 1) AS n, LATERAL (SELECT now() - (n % 180) * interval '1 day' - (n % 997) * interval '1 minute' AS created) AS c`,
        [project.id, campaign.id, referrals],
      );
      await c.query(
        `INSERT INTO "RewardHistory" ("id", "projectId", "trackingId", "referrerId", "refereeId", "eventName", "claimedAt")
         SELECT md5(t."id" || ':h')::uuid::text, $1, t."id", t."referrerId", t."refereeId", 'purchase', t."rewardClaimedAt"
         FROM "ReferralTracking" t WHERE t."projectId" = $1 AND t."status" = 'Completed'`,
        [project.id],
      );
      await c.query(
        `INSERT INTO "RewardReview" ("trackingId", "projectId", "eventName", "reasons", "createdAt")
         SELECT t."id", $1, 'purchase', ARRAY['hold'], t."createdAt" FROM "ReferralTracking" t
         WHERE t."projectId" = $1 AND t."status" = 'Pending' AND t."refereeId" IS NOT NULL AND hashtext(t."id") % 6 = 0`,
        [project.id],
      );
      await c.query(
        `UPDATE "AppUserCounters" SET "totalReferralsGiven" = $2,
           "successfulReferrals" = (SELECT count(*) FROM "RewardHistory" WHERE "referrerId" = ${referrer})
         WHERE "appUserId" = ${referrer}`,
        [project.id, referrals],
      );
      await c.query(
        `INSERT INTO "MilestoneReached" ("id", "projectId", "appUserId", "referrals", "name")
         VALUES (gen_random_uuid()::text, $1, ${referrer}, 10, 'Bronze'), (gen_random_uuid()::text, $1, ${referrer}, 100, 'Silver')`,
        [project.id],
      );
    });
    await c.query(`VACUUM ANALYZE "AppUser", "AppUserCounters", "ReferralTracking", "RewardHistory", "RewardReview", "MilestoneReached"`);
  });
  const [row] = await db.$queryRawUnsafe<{ id: string }[]>(`SELECT ${referrer.replace("$1", `'${project.id}'`)} AS id`);
  return { organizationId: org.id, projectId: project.id, secret, referrals, seedMs: performance.now() - started, referrerId: row!.id, referrerClientId: seededClientId(PREFIX, 1) };
}

/** Sequential runs after warm-up: the domain function, the SDK endpoint (sk_, through its handler), the hosted page (HTML). */
export async function measurePortal(db: Db, f: PortalFixture, runs: number): Promise<PortalCaseResult[]> {
  const services = testServices(db);
  const project = { id: f.projectId, appType: "Web" as const, referralRedirectLink: "https://shop.example.com/join" };
  const { url } = await createPortalSession(db, services.config, f.organizationId, f.projectId, f.referrerId, { expiresInSeconds: 86_400, publicOrigin: "http://localhost" });
  const cases: [string, () => Promise<unknown>][] = [
    ["summary, domain, first page", () => getReferralSummary(db, { project, appUserId: f.referrerId, publicOrigin: "http://localhost" }, { page: 1, pageSize: 20 })],
    ["summary, domain, page 400", () => getReferralSummary(db, { project, appUserId: f.referrerId, publicOrigin: "http://localhost" }, { page: 400, pageSize: 20 })],
    [
      "summary, SDK endpoint (sk_)",
      async () => {
        const res = await handleSdkRequest(
          new Request("http://localhost/api/v1/sdk/referral-summary", { method: "POST", headers: { "content-type": "application/json", "X-Service-ProjectSecret": f.secret }, body: JSON.stringify({ userId: f.referrerClientId }) }),
          services,
        );
        if (res.status !== 200) throw new Error(`referral-summary answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      },
    ],
    [
      "hosted page (HTML)",
      async () => {
        const answer = await answerPortal(fromFetchRequest(new Request(url, { headers: { accept: "text/html" } })), services);
        if (answer.status !== 200) throw new Error(`portal page answered ${answer.status}`);
      },
    ],
  ];
  const results: PortalCaseResult[] = [];
  for (const [name, fn] of cases) {
    await timeSequential(WARMUP_RUNS, fn);
    results.push({ name, latency: summarize(await timeSequential(runs, fn)) });
  }
  return results;
}
