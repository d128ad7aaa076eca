/** Searching a project's deliveries, as support does: by each kind of id, by status, webhook, event, time, deep pages. */
import type { Db } from "@/server/db/client";
import { getConfig } from "@/server/config";
import { deliveryListQuery } from "@/lib/schemas/deliveries";
import { searchDeliveries } from "@/server/domain/deliveries/search-deliveries";
import { createProject } from "@/server/domain/projects/create-project";
import { testConfig } from "@/test/config";
import { createOrgWithApiKey, restClient } from "@/test/rest";
import { captureQueries } from "./capture-queries";
import { withClient } from "./postgres";
import { serverTimes } from "./server-time";
import { seedAppUsers, seededAppUserIdSql, seededClientId, withIndexesRebuilt } from "./seed";
import { summarize, timeSequential, type LatencySummary } from "./stats";

const CLIENT_ID_PREFIX = "sup_";
const WEBHOOKS = 4;
const WARMUP_RUNS = 3;
/** EXPLAIN ANALYZE runs per case, for the server's own time. */
const SERVER_TIME_RUNS = 10;
/** Tracking items per seeding statement: bounded statements and memory. */
const CHUNK = 50_000;

export type DeliveryFixture = {
  organizationId: string;
  projectId: string;
  apiKey: string;
  deliveries: number;
  seedMs: number;
  webhookIds: string[];
  /** Ids known to exist, to search for. */
  sample: { deliveryId: string; trackingId: string; referrer: string; referee: string };
};
type Query = Record<string, string | number>;
export type DeliveryCase = { name: string; query: Query };
/** totalCount as the search answered it: exact, or a lower bound (totalCountExact false). */
export type DeliveryCaseResult = {
  name: string;
  query: Query;
  totalCount: number;
  totalCountExact: boolean;
  domain: LatencySummary;
  rest: LatencySummary;
  /** PostgreSQL's time for the search's statements (page and count, which run side by side), summed. */
  server: LatencySummary;
};

const trackingIdSql = (n: string) => `md5($1 || ':t:' || ${n})::uuid::text`;
const uniform = (n: string, k: string) => `((hashint4extended(${n}, ${k}) & 1073741823)::float8 / 1073741824)`;

/**
 * One project with `deliveries` deliveries: 4 webhooks, one tracking item per 4 deliveries (each
 * reward delivered to every webhook), an app user per 8; created over 90 days; 90% Succeeded, 8%
 * Failed, 2% Pending; two event names. Seeded in SQL, then VACUUM ANALYZE (as autovacuum would).
 */
export async function prepareDeliveryProject(db: Db, url: string, deliveries: number): Promise<DeliveryFixture> {
  const { org, apiKey } = await createOrgWithApiKey(db);
  const { project } = await createProject(db, org.id, { name: "Bench deliveries", appType: "Web" }, getConfig().urlRules);
  const campaign = await db.campaign.findFirstOrThrow({ where: { projectId: project.id } });
  const webhookIds: string[] = [];
  for (let k = 1; k <= WEBHOOKS; k++) {
    const hook = await db.webhook.create({
      data: { projectId: project.id, campaignId: campaign.id, name: `Receiver ${k}`, url: `https://hooks${k}.example.com/referloop`, secretEncrypted: "bench", secretHint: "****" },
    });
    webhookIds.push(hook.id);
  }
  const items = Math.ceil(deliveries / WEBHOOKS);
  const users = Math.max(2, Math.ceil(deliveries / 8));
  const started = performance.now();
  await withClient(url, async (c) => {
    await withIndexesRebuilt(c, ["AppUser", "AppUserCounters", "ReferralTracking", "Delivery"], async () => {
      await seedAppUsers(c, project.id, users, CLIENT_ID_PREFIX);
      for (let first = 1; first <= items; first += CHUNK) {
        const last = Math.min(items, first + CHUNK - 1);
        const numbered = `generate_series($2::int, $3::int) AS n`;
        await c.query(
          `INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "refereeId", "referralCode", "status", "rewardClaimed", "rewardClaimedAt", "createdAt", "updatedAt")
           SELECT ${trackingIdSql("n")}, $1, $4, ${seededAppUserIdSql("$1", "(((n - 1) % $5) + 1)")}, ${seededAppUserIdSql("$1", "(((n * 7) % $5) + 1)")},
                  'BENCH0', 'Completed', true, created, created, created
           FROM ${numbered}, LATERAL (SELECT now() - ${uniform("n", "1")} * interval '90 days' AS created) AS c`,
          [project.id, first, last, campaign.id, users],
        );
        await c.query(
          `INSERT INTO "Delivery" ("id", "projectId", "webhookId", "trackingId", "referrerId", "refereeId", "eventName", "payload", "status", "attemptCount", "nextAttemptAt",
             "lastAttemptAt", "lastHttpStatus", "failure", "createdAt", "updatedAt")
           SELECT md5($1 || ':d:' || n || ':' || w.k)::uuid::text, $1, w."id", ${trackingIdSql("n")},
                  ${seededAppUserIdSql("$1", "(((n - 1) % $4) + 1)")}, ${seededAppUserIdSql("$1", "(((n * 7) % $4) + 1)")}, CASE WHEN n % 3 = 0 THEN 'signup' ELSE 'purchase' END,
                  '{}'::jsonb, s.status::"DeliveryStatus", CASE s.status WHEN 'Succeeded' THEN 1 WHEN 'Failed' THEN 5 ELSE 2 END,
                  CASE s.status WHEN 'Pending' THEN now() + interval '10 minutes' ELSE created END, created,
                  CASE s.status WHEN 'Succeeded' THEN 200 ELSE 503 END, CASE s.status WHEN 'Failed' THEN 'exhausted' END, created, created
           FROM ${numbered}
           CROSS JOIN (SELECT "id", row_number() OVER (ORDER BY "id") AS k FROM "Webhook" WHERE "projectId" = $1) AS w
           CROSS JOIN LATERAL (SELECT now() - ${uniform("n", "1")} * interval '90 days' AS created,
             CASE WHEN ${uniform("n", "(10 + w.k)::bigint")} < 0.9 THEN 'Succeeded' WHEN ${uniform("n", "(10 + w.k)::bigint")} < 0.98 THEN 'Failed' ELSE 'Pending' END AS status) AS s`,
          [project.id, first, last, users],
        );
      }
    });
    await c.query(`VACUUM ANALYZE "Delivery"`);
    await c.query(`VACUUM ANALYZE "ReferralTracking"`);
    await c.query(`VACUUM ANALYZE "AppUser"`);
  });
  const seedMs = performance.now() - started;
  const middle = Math.ceil(items / 2);
  const sample = await withClient(url, async (c) => {
    const { rows } = await c.query<{ id: string; trackingId: string }>(
      `SELECT "id", "trackingId" FROM "Delivery" WHERE "trackingId" = md5($1 || ':t:' || $2::int)::uuid::text LIMIT 1`,
      [project.id, middle],
    );
    return rows[0]!;
  });
  return {
    organizationId: org.id,
    projectId: project.id,
    apiKey,
    deliveries,
    seedMs,
    webhookIds,
    sample: {
      deliveryId: sample.id,
      trackingId: sample.trackingId,
      referrer: seededClientId(CLIENT_ID_PREFIX, ((middle - 1) % users) + 1),
      referee: seededClientId(CLIENT_ID_PREFIX, ((middle * 7) % users) + 1),
    },
  };
}

export function deliveryCases(f: DeliveryFixture): DeliveryCase[] {
  const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60_000).toISOString();
  const lastPage = Math.max(1, Math.min(500, Math.floor(f.deliveries / 20)));
  return [
    { name: "newest first", query: {} },
    { name: "search delivery id", query: { search: f.sample.deliveryId } },
    { name: "search tracking id", query: { search: f.sample.trackingId } },
    { name: "search referrer client id", query: { search: f.sample.referrer } },
    { name: "search referee client id", query: { search: f.sample.referee } },
    { name: "search unknown id", query: { search: "nobody-at-all" } },
    { name: "status=Failed", query: { status: "Failed" } },
    { name: "status=Pending", query: { status: "Pending" } },
    { name: "webhookId", query: { webhookId: f.webhookIds[1]! } },
    { name: "webhookId + status=Failed", query: { webhookId: f.webhookIds[0]!, status: "Failed" } },
    { name: "event=signup", query: { event: "signup" } },
    { name: "event=signup + status=Failed", query: { event: "signup", status: "Failed" } },
    { name: "last 7 days", query: { from: daysAgo(7) } },
    { name: "one day, a month ago", query: { from: daysAgo(31), to: daysAgo(30) } },
    { name: "referrer + status=Failed", query: { search: f.sample.referrer, status: "Failed" } },
    { name: `page ${lastPage}`, query: { page: lastPage } },
    { name: `status=Failed, page ${Math.ceil(lastPage / 2)}`, query: { status: "Failed", page: Math.ceil(lastPage / 2) } },
  ];
}

/**
 * Each case `runs` times through searchDeliveries and through the REST handler, after warm-up calls,
 * then its statements' server time (EXPLAIN ANALYZE).
 */
export async function measureDeliveryCases(db: Db, url: string, f: DeliveryFixture, cases: DeliveryCase[], runs: number): Promise<DeliveryCaseResult[]> {
  // One key sends every case's calls within a minute or two: the limiter still runs (its cost is part
  // of a request) with a limit no run reaches, as bench:http sets it.
  const call = restClient(db, f.apiKey, { config: testConfig({ RATE_LIMIT_API_KEY_PER_MINUTE: "1000000000" }) });
  const results: DeliveryCaseResult[] = [];
  for (const c of cases) {
    const input = deliveryListQuery.parse(Object.fromEntries(Object.entries(c.query).map(([k, v]) => [k, k === "page" ? Number(v) : v])));
    const viaDomain = () => searchDeliveries(db, f.organizationId, f.projectId, input);
    const query = new URLSearchParams(Object.entries(c.query).map(([k, v]) => [k, String(v)])).toString();
    const viaRest = async () => {
      const res = await call("GET", `/projects/${f.projectId}/deliveries${query ? `?${query}` : ""}`);
      if (res.status !== 200) throw new Error(`REST search (${c.name}) answered ${res.status}: ${res.text}`);
    };
    const { totalCount, totalCountExact } = await viaDomain();
    await timeSequential(WARMUP_RUNS, viaDomain);
    await timeSequential(WARMUP_RUNS, viaRest);
    const domain = summarize(await timeSequential(runs, viaDomain));
    const rest = summarize(await timeSequential(runs, viaRest));
    const statements = (await captureQueries(url, (logging) => searchDeliveries(logging, f.organizationId, f.projectId, input))).filter((q) => q.sql.includes('"Delivery"'));
    const server = await withClient(url, (client) => serverTimes(client, statements, SERVER_TIME_RUNS));
    results.push({ name: c.name, query: c.query, totalCount, totalCountExact, domain, rest, server });
  }
  return results;
}
