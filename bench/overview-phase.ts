/**
 * Insight at scale: the project overview's queries over 7, 30, 90 and 366 days, and the CSV exports'
 * rows per second and memory, in one project of `users` app users and `items` tracking items created
 * over the past year (a quarter completed with their rewards and Claimed events, a tenth failed, one
 * delivery and attempt per other reward, clicks per day).
 */
import { getConfig } from "@/server/config";
import type { Db } from "@/server/db/client";
import { addDays, dayOf } from "@/lib/schemas/stats";
import { createProject } from "@/server/domain/projects/create-project";
import { countTopReferrers } from "@/server/domain/stats/top-referrers";
import { exportAppUsers } from "@/server/domain/exports/export-app-users";
import { exportDeliveries } from "@/server/domain/exports/export-deliveries";
import { exportReferrals } from "@/server/domain/exports/export-referrals";
import type { CsvExport } from "@/server/domain/exports/csv-export";
import { getProjectOverview } from "@/server/domain/stats/get-project-overview";
import { statsWindow } from "@/server/domain/stats/stats-window";
import { createOrgWithApiKey } from "@/test/rest";
import { captureQueries, statementLabel } from "./capture-queries";
import { withClient } from "./postgres";
import { serverTimeMs } from "./server-time";
import { seedAppUsers, seededAppUserIdSql, withIndexesRebuilt } from "./seed";
import { summarize, timeSequential, type LatencySummary } from "./stats";

export type OverviewFixture = { organizationId: string; projectId: string; users: number; items: number; seedMs: number; wideProjectId: string };

/** The wide rows' export: this many app users, each with WIDE_ATTRIBUTES attributes of 400 characters (about 20 KB of CSV a row). */
export const WIDE_USERS = 1_000;
export const WIDE_ATTRIBUTES = 50;
export type OverviewCase = { days: number; result: LatencySummary };
export type ExportRun = { file: string; rows: number; bytes: number; wallMs: number; rowsPerS: number; rssBefore: number; rssPeak: number; largestChunk: number };

/** `users` app users and `items` tracking items (with rewards, events, deliveries, attempts and click counts), then VACUUM ANALYZE. */
export async function prepareOverviewProject(db: Db, url: string, users: number, items: number): Promise<OverviewFixture> {
  const { org } = await createOrgWithApiKey(db);
  const { project } = await createProject(db, org.id, { name: "Bench insight", appType: "Mobile", app: { name: "Bench" } }, getConfig().urlRules);
  const campaignId = (await db.campaign.findUniqueOrThrow({ where: { projectId: project.id } })).id;
  const webhook = await db.webhook.create({
    data: { projectId: project.id, campaignId, name: "Bench", url: "https://bench.example.com/hook", secretEncrypted: "x", secretHint: "x" },
  });
  const started = performance.now();
  const user = (n: string) => seededAppUserIdSql("$1", n);
  // Deterministic spread: item n's time and its parties come from hashes of n.
  const u = (k: number) => `((hashint4extended(n, ${k}) & 1073741823)::float8 / 1073741824)`;
  await withClient(url, async (c) => {
    // Users and items, the bulk, with their tables' secondary indexes built afterwards; the rewards
    // and what follows them through the live indexes, whose unique keys settle the rare repeated pair.
    // No triggers (withIndexesRebuilt): the daily roll-ups are counted once at the end.
    await withIndexesRebuilt(c, ["AppUser", "AppUserCounters", "ReferralTracking"], async () => {
      // Each table in the order of its rows' time, as a year of use leaves it (see seedAppUsers).
      await seedAppUsers(c, project.id, users, "ins_", 1, { inCreationOrder: true });
      // Every fourth item completes, with a referee of its own (a referee completes once); every tenth fails.
      await c.query(
        `INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "refereeId", "referralCode", "status", "failureReason",
           "rewardClaimed", "rewardClaimedAt", "createdAt", "updatedAt")
         SELECT md5($1 || ':item:' || n)::uuid::text, $1, $2, ${user(`(1 + floor(${u(11)} * $3::int)::int)`)},
           CASE WHEN n % 4 = 0 THEN ${user(`(1 + (n / 4 - 1) % $3::int)`)} ELSE NULL END, 'ABCDEF',
           (CASE WHEN n % 4 = 0 THEN 'Completed' WHEN n % 10 = 1 THEN 'Failed' ELSE 'Pending' END)::"TrackingStatus",
           CASE WHEN n % 10 = 1 AND n % 4 <> 0 THEN 'expired' END,
           n % 4 = 0, CASE WHEN n % 4 = 0 THEN created + interval '1 hour' END, created,
           CASE WHEN n % 4 = 0 OR n % 10 = 1 THEN created + interval '1 hour' ELSE created END
         FROM generate_series(1, $4::int) AS n, LATERAL (SELECT now() - ${u(12)} * interval '365 days' AS created) AS t
         ORDER BY t.created`,
        [project.id, campaignId, users, items],
      );
      // The counters as the claims would have left them (seedAppUsers made up its own): the overview's
      // top referrers read successfulReferrals as a bound on a referrer's rewards. Counted from the
      // items, so a reward the history below skips (a repeated pair) leaves its counter one higher,
      // which keeps it a bound.
      await c.query(`UPDATE "AppUserCounters" SET "successfulReferrals" = 0, "totalReferralsGiven" = 0 WHERE "projectId" = $1`, [project.id]);
      await c.query(
        `UPDATE "AppUserCounters" c SET "totalReferralsGiven" = x."given", "successfulReferrals" = x."completed"
         FROM (SELECT "referrerId", count(*)::int AS "given", count(*) FILTER (WHERE "status" = 'Completed' AND "referrerId" <> "refereeId")::int AS "completed"
               FROM "ReferralTracking" WHERE "projectId" = $1 GROUP BY 1) x
         WHERE c."appUserId" = x."referrerId"`,
        [project.id],
      );
    });
    // The rest with triggers off too (no indexes dropped); the daily roll-ups are counted at the end.
    await withIndexesRebuilt(c, [], async () => {
      await c.query(
        `INSERT INTO "RewardHistory" ("id", "projectId", "trackingId", "referrerId", "refereeId", "eventName", "claimedAt", "grandfathered")
         SELECT md5("id" || ':reward')::uuid::text, "projectId", "id", "referrerId", "refereeId", 'purchase', "rewardClaimedAt", true
         FROM "ReferralTracking" WHERE "projectId" = $1 AND "status" = 'Completed' AND "referrerId" <> "refereeId"
         ORDER BY "rewardClaimedAt"
         ON CONFLICT DO NOTHING`,
        [project.id],
      );
      await c.query(
        `INSERT INTO "RewardEvent" ("id", "projectId", "trackingId", "eventName", "outcome", "reason", "createdAt")
         SELECT md5("id" || ':event')::uuid::text, "projectId", "id", CASE WHEN "id" < '8' THEN 'purchase' ELSE 'signup' END,
           (CASE WHEN "status" = 'Completed' THEN 'Claimed' ELSE 'Rejected' END)::"RewardEventOutcome", "failureReason", "updatedAt"
         FROM "ReferralTracking" WHERE "projectId" = $1 AND "status" <> 'Pending'
         ORDER BY "updatedAt"`,
        [project.id],
      );
      await c.query(
        `WITH d AS (
           INSERT INTO "Delivery" ("id", "projectId", "webhookId", "trackingId", "referrerId", "refereeId", "eventName", "status", "attemptCount", "createdAt", "updatedAt")
           SELECT md5("trackingId" || ':delivery')::uuid::text, "projectId", $2, "trackingId", "referrerId", "refereeId", 'purchase',
             (CASE WHEN "id" < '1' THEN 'Failed' ELSE 'Succeeded' END)::"DeliveryStatus", 1, "claimedAt", "claimedAt"
           FROM "RewardHistory" WHERE "projectId" = $1 AND "id" < '8'
           ORDER BY "claimedAt"
           RETURNING "id", "projectId", "webhookId", "status", "createdAt")
         INSERT INTO "DeliveryAttempt" ("id", "projectId", "webhookId", "deliveryId", "attemptNumber", "eventType", "httpStatus", "responseTimeMs", "success", "createdAt")
         SELECT md5("id" || ':attempt')::uuid::text, "projectId", "webhookId", "id", 1, 'purchase', 200, 20 + (hashtext("id") & 511), "status" = 'Succeeded', "createdAt" FROM d`,
        [project.id, webhook.id],
      );
      await c.query(
        `INSERT INTO "LinkClickDay" ("projectId", "day", "clicks")
         SELECT $1, d::date, 1000 + (hashtext(d::text) & 1023) FROM generate_series(now() - interval '365 days', now(), interval '1 day') AS d
         ON CONFLICT DO NOTHING`,
        [project.id],
      );
    });
    await c.query(`SELECT "referloop_recount_days"($1)`, [project.id]);
    for (const table of ["AppUser", "AppUserCounters", "ReferralTracking", "RewardHistory", "RewardEvent", "Delivery", "DeliveryAttempt", "ReferralDay", "RewardEventDay"]) {
      await c.query(`VACUUM ANALYZE "${table}"`);
    }
  });
  const seedMs = performance.now() - started;
  const wide = await createProject(db, org.id, { name: "Bench wide rows", appType: "Web" }, getConfig().urlRules);
  await withClient(url, (c) =>
    c.query(
      `INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "attributes", "createdAt", "updatedAt")
       SELECT md5($1 || ':wide:' || n)::uuid::text, $1, 'wide-' || n, 'W' || lpad(n::text, 7, '0'),
         (SELECT jsonb_object_agg('attr' || k, repeat(md5(n::text || ':' || k), 12) || ', "quoted" ' || repeat('x', 10)) FROM generate_series(1, $3::int) AS k),
         now() - (($2::int - n) * interval '1 second'), now()
       FROM generate_series(1, $2::int) AS n`,
      [wide.project.id, WIDE_USERS, WIDE_ATTRIBUTES],
    ),
  );
  return { organizationId: org.id, projectId: project.id, users, items, seedMs, wideProjectId: wide.project.id };
}

export const OVERVIEW_RANGES = [7, 30, 90, 366] as const;

/** The overview (every query of the page, side by side, as the dashboard asks) over each range, `runs` times after a warm-up. */
export async function measureOverview(db: Db, f: OverviewFixture, runs: number): Promise<OverviewCase[]> {
  const today = dayOf(new Date());
  const results: OverviewCase[] = [];
  for (const days of OVERVIEW_RANGES) {
    const w = statsWindow({ from: addDays(today, -(days - 1)), to: today });
    const once = () => getProjectOverview(db, f.organizationId, f.projectId, w);
    // The answer first: the top referrers as counting every reward gives them.
    const { topReferrers } = await once();
    const counted = await countTopReferrers(db, f.projectId, w, 10);
    if (JSON.stringify(topReferrers) !== JSON.stringify(counted)) throw new Error(`top referrers over ${days} days differ from counting every reward`);
    results.push({ days, result: summarize(await timeSequential(runs, once)) });
  }
  return results;
}

export type OverviewQuery = { days: number; name: string; sql: string; result: LatencySummary };

/** What each statement of the overview reads, by its text (statementLabel when none matches). */
const QUERY_NAMES: [RegExp, string][] = [
  [/FROM "Project"/, "the project (ownership)"],
  [/"inWindow"/, "top referrers: rewards in the range and in all (roll-up)"],
  [/FROM "ReferralDay"/, "tracked, completed, failed per day (roll-up)"],
  [/FROM "RewardEventDay"/, "reward events by name (roll-up)"],
  [/FROM "ReferralTracking"[\s\S]*"status" IN/, "tracked per day"],
  [/FROM "ReferralTracking"[\s\S]*'Failed'/, "failed"],
  [/"claimedAt"::date/, "completed per day"],
  [/FROM "LinkClickDay"/, "clicks"],
  [/FROM "Delivery"[\s\S]*'Succeeded'/, "deliveries by status"],
  [/FROM "RewardEvent"/, "reward events by name"],
  [/top\."rewards"/, "top referrers (every reward counted)"],
  [/FROM "AppUserCounters"/, "top referrers (the all-time leaders, bounded)"],
  [/FROM "DeliveryAttempt"/, "webhook health (attempts)"],
  [/'Pending' AND "attemptCount"/, "deliveries retrying"],
  [/FROM "Delivery"[\s\S]*'Failed'/, "deliveries failed"],
  [/FROM "Webhook"/, "webhooks disabled"],
];
const queryName = (sql: string) => QUERY_NAMES.find(([pattern]) => pattern.test(sql))?.[1] ?? statementLabel(sql);

/**
 * Each statement the overview sends (captured from a logging client), run alone on one connection
 * `runs` times after a warm-up: its server time (planning and execution, EXPLAIN ANALYZE).
 */
export async function measureOverviewQueries(url: string, f: OverviewFixture, runs: number): Promise<OverviewQuery[]> {
  const today = dayOf(new Date());
  const results: OverviewQuery[] = [];
  for (const days of OVERVIEW_RANGES) {
    const w = statsWindow({ from: addDays(today, -(days - 1)), to: today });
    const statements = await captureQueries(url, (logging) => getProjectOverview(logging, f.organizationId, f.projectId, w));
    await withClient(url, async (c) => {
      for (const statement of statements) {
        const samples: number[] = [];
        for (let i = -1; i < runs; i++) {
          const ms = await serverTimeMs(c, statement.sql, statement.params);
          if (i >= 0) samples.push(ms);
        }
        results.push({ days, name: queryName(statement.sql), sql: statement.sql, result: summarize(samples) });
      }
    });
  }
  return results;
}

/** Reads an export to its end as a client would (without keeping it), with its rows, time and this process's peak RSS. */
export async function measureExport(file: string, make: () => Promise<CsvExport>): Promise<ExportRun> {
  global.gc?.();
  const rssBefore = process.memoryUsage.rss();
  let rssPeak = rssBefore;
  const started = performance.now();
  const csv = await make();
  let bytes = 0;
  let lines = 0;
  // The most of the file held at once as one chunk: what the export buffers, free of the GC's slack in RSS.
  let largestChunk = 0;
  for await (const chunk of csv.chunks) {
    bytes += chunk.byteLength;
    largestChunk = Math.max(largestChunk, chunk.byteLength);
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) lines++;
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }
  const wallMs = performance.now() - started;
  const rows = lines - 1;
  return { file, rows, bytes, wallMs, rowsPerS: (rows / wallMs) * 1000, rssBefore, rssPeak, largestChunk };
}

export const measureExports = (db: Db, f: OverviewFixture) => [
  () => measureExport("app-users.csv", () => exportAppUsers(db, f.organizationId, f.projectId, { attributes: ["plan"] })),
  () => measureExport("referrals.csv", () => exportReferrals(db, f.organizationId, f.projectId, {})),
  () => measureExport("deliveries.csv", () => exportDeliveries(db, f.organizationId, f.projectId, {})),
  // Wide rows: memory must stay flat whatever a row's width (written by size, about 1 MB a chunk).
  () =>
    measureExport(`app-users.csv, ${WIDE_USERS} users x ${WIDE_ATTRIBUTES} wide attributes`, () =>
      exportAppUsers(db, f.organizationId, f.wideProjectId, { attributes: Array.from({ length: WIDE_ATTRIBUTES }, (_, i) => `attr${i + 1}`) }),
    ),
];
