/**
 * Search by what people know (issue 38), in one project of many app users: users by the start of
 * their e-mail or name, referrals and deliveries by the short id the tables show and by a party's
 * e-mail. Over REST, one call at a time, each case's p99 against its target.
 */
import type { Db } from "@/server/db/client";
import { getConfig } from "@/server/config";
import { createProject } from "@/server/domain/projects/create-project";
import { testConfig } from "@/test/config";
import { createOrgWithApiKey, restClient } from "@/test/rest";
import { listAppUsersQuery } from "@/lib/schemas/app-users";
import { deliveryListQuery } from "@/lib/schemas/deliveries";
import { referralSearchQuery } from "@/lib/schemas/referrals";
import { listAppUsers } from "@/server/domain/app-users/list-app-users";
import { searchDeliveries } from "@/server/domain/deliveries/search-deliveries";
import { listReferrals } from "@/server/domain/referrals/list-referrals";
import { captureQueries } from "./capture-queries";
import { withClient } from "./postgres";
import { serverTimes } from "./server-time";
import { seedAppUsers, seededAppUserIdSql, seededEmail, seededName, withIndexesRebuilt } from "./seed";
import { summarize, timeSequential, type LatencySummary } from "./stats";

const WARMUP_RUNS = 3;
/** EXPLAIN ANALYZE runs per case, for the server's own time. */
const SERVER_TIME_RUNS = 10;
/** Users per tracking item: a quarter of the users referred someone once. */
const USERS_PER_ITEM = 4;
const CHUNK = 50_000;

export type PeopleFixture = { organizationId: string; projectId: string; apiKey: string; users: number; items: number; seedMs: number; sample: { n: number; trackingId: string; deliveryId: string } };
export type PeopleCase = { name: string; path: "users" | "referrals" | "deliveries"; search: string };
/** `server`: the sum of the case's statements' own times (planning and execution), one after another. */
export type PeopleCaseResult = PeopleCase & { totalCount: number; totalCountExact: boolean; rest: LatencySummary; server: LatencySummary };

/**
 * `users` app users with `email` and `name` attributes (40 first names by 40 last names, an e-mail
 * unique by row), a tracking item per 4 users (Completed) and its delivery to one webhook; then
 * VACUUM ANALYZE, as autovacuum would.
 */
export async function preparePeopleProject(db: Db, url: string, users: number): Promise<PeopleFixture> {
  const { org, apiKey } = await createOrgWithApiKey(db);
  const { project } = await createProject(db, org.id, { name: "Bench people", appType: "Web" }, getConfig().urlRules);
  const campaign = await db.campaign.findFirstOrThrow({ where: { projectId: project.id } });
  const hook = await db.webhook.create({
    data: { projectId: project.id, campaignId: campaign.id, name: "Receiver", url: "https://hooks.example.com/referloop", secretEncrypted: "bench", secretHint: "****" },
  });
  const items = Math.ceil(users / USERS_PER_ITEM);
  const started = performance.now();
  await withClient(url, async (c) => {
    await withIndexesRebuilt(c, ["AppUser", "AppUserCounters", "ReferralTracking", "Delivery"], async () => {
      await seedAppUsers(c, project.id, users, "ppl_", 1, { contact: true });
      for (let first = 1; first <= items; first += CHUNK) {
        const last = Math.min(items, first + CHUNK - 1);
        // Item n: referrer 4n - 3, referee 4n - 2 (so each user is in at most one item).
        await c.query(
          `WITH item AS (
             INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "refereeId", "referralCode", "status", "rewardClaimed", "rewardClaimedAt", "createdAt", "updatedAt")
             SELECT md5($1 || ':pt:' || n)::uuid::text, $1, $4, ${seededAppUserIdSql("$1", "(4 * n - 3)")}, ${seededAppUserIdSql("$1", "(4 * n - 2)")},
                    'BENCH0', 'Completed', true, created, created, created
             FROM generate_series($2::int, $3::int) AS n, LATERAL (SELECT now() - ((hashint4extended(n, 1) & 1073741823)::float8 / 1073741824) * interval '90 days' AS created) AS c
             RETURNING "id", "referrerId", "refereeId", "createdAt"
           )
           INSERT INTO "Delivery" ("id", "projectId", "webhookId", "trackingId", "referrerId", "refereeId", "eventName", "payload", "status", "attemptCount",
             "nextAttemptAt", "lastAttemptAt", "lastHttpStatus", "createdAt", "updatedAt")
           SELECT md5("id" || ':pd')::uuid::text, $1, $5, "id", "referrerId", "refereeId", 'purchase', '{}'::jsonb, 'Succeeded', 1,
                  "createdAt", "createdAt", 200, "createdAt", "createdAt"
           FROM item`,
          [project.id, first, last, campaign.id, hook.id],
        );
      }
    });
    for (const table of ["AppUser", "ReferralTracking", "Delivery"]) await c.query(`VACUUM ANALYZE "${table}"`);
  });
  const seedMs = performance.now() - started;
  const middle = Math.ceil(items / 2);
  const sample = await withClient(url, async (c) => {
    const { rows } = await c.query<{ id: string; trackingId: string }>(`SELECT "id", "trackingId" FROM "Delivery" WHERE "trackingId" = md5($1 || ':pt:' || $2::int)::uuid::text`, [
      project.id,
      middle,
    ]);
    return rows[0]!;
  });
  return { organizationId: org.id, projectId: project.id, apiKey, users, items, seedMs, sample: { n: middle, trackingId: sample.trackingId, deliveryId: sample.id } };
}

export function peopleCases(f: PeopleFixture): PeopleCase[] {
  const referee = 4 * f.sample.n - 2;
  const referrer = 4 * f.sample.n - 3;
  return [
    { name: "user by whole e-mail, other case", path: "users", search: seededEmail(referee).toUpperCase() },
    { name: "users by e-mail prefix first.last.", path: "users", search: seededEmail(1600).split(".").slice(0, 2).join(".") + "." },
    { name: "users by name prefix", path: "users", search: seededName(referee).slice(0, -2) },
    { name: "users by first name (1 in 40)", path: "users", search: seededName(referee).split(" ")[0]!.toLowerCase() },
    { name: "users by a prefix nobody has", path: "users", search: "zz-nobody" },
    { name: "referral by short id", path: "referrals", search: `${f.sample.trackingId.slice(0, 8)}…` },
    { name: "referral by referee e-mail", path: "referrals", search: seededEmail(referee) },
    { name: "referral by referrer e-mail", path: "referrals", search: seededEmail(referrer).toUpperCase() },
    { name: "delivery by short id", path: "deliveries", search: f.sample.deliveryId.slice(0, 8) },
    { name: "deliveries by referrer e-mail", path: "deliveries", search: seededEmail(referrer) },
  ];
}

/** The domain call a case's REST request makes, for its statements. */
function domainCall(f: PeopleFixture, c: PeopleCase) {
  const search = c.search;
  return (db: Db) =>
    c.path === "users"
      ? listAppUsers(db, f.organizationId, f.projectId, listAppUsersQuery.parse({ search }))
      : c.path === "referrals"
        ? listReferrals(db, f.organizationId, f.projectId, referralSearchQuery.parse({ search }))
        : searchDeliveries(db, f.organizationId, f.projectId, deliveryListQuery.parse({ search }));
}

/** Each case `runs` times over REST (the handler in process, as the other phases), after warm-up calls; then its statements' server time. */
export async function measurePeopleCases(db: Db, url: string, f: PeopleFixture, cases: PeopleCase[], runs: number): Promise<PeopleCaseResult[]> {
  const call = restClient(db, f.apiKey, { config: testConfig({ RATE_LIMIT_API_KEY_PER_MINUTE: "1000000000" }) });
  const results: PeopleCaseResult[] = [];
  for (const c of cases) {
    let totalCount = 0;
    let totalCountExact = true;
    const viaRest = async () => {
      const res = await call("GET", `/projects/${f.projectId}/${c.path}?search=${encodeURIComponent(c.search)}`);
      if (res.status !== 200) throw new Error(`REST search (${c.name}) answered ${res.status}: ${res.text}`);
      ({ totalCount, totalCountExact = true } = res.json as { totalCount: number; totalCountExact?: boolean });
    };
    await timeSequential(WARMUP_RUNS, viaRest);
    const rest = summarize(await timeSequential(runs, viaRest));
    const statements = await captureQueries(url, domainCall(f, c));
    const server = await withClient(url, (client) => serverTimes(client, statements, SERVER_TIME_RUNS));
    results.push({ ...c, totalCount, totalCountExact, rest, server });
  }
  return results;
}
