/** Listing app users in one large project: every sort, the filters, search and a deep page. */
import { getConfig } from "@/server/config";
import type { Db } from "@/server/db/client";
import { z } from "zod";
import { APP_USER_SORT_FIELDS, DEFAULT_APP_USER_SORT, listAppUsersQuery, SORT_ORDERS } from "@/lib/schemas/app-users";
import { DEFAULT_PAGE_SIZE } from "@/lib/schemas/common";
import { listAppUsers } from "@/server/domain/app-users/list-app-users";
import { createProject } from "@/server/domain/projects/create-project";
import { createOrgWithApiKey, restClient } from "@/test/rest";
import { captureQueries } from "./capture-queries";
import { withClient } from "./postgres";
import { seedAppUsers, seededReferralCode, seedReferredBy } from "./seed";
import { summarize, timeSequential, type LatencySummary } from "./stats";

const CLIENT_ID_PREFIX = "cust_";
const WARMUP_RUNS = 2;

export type ListFixture = { organizationId: string; projectId: string; apiKey: string; users: number; seedMs: number };
/** A case: what it sets of the query; the rest takes the schema's defaults. */
type ListQuery = Partial<z.output<typeof listAppUsersQuery>>;
export type ListCase = { name: string; input: ListQuery };
export type ListCaseResult = { name: string; input: ListQuery; totalCount: number; totalCountExact: boolean; domain: LatencySummary; rest: LatencySummary };

/** One project with `users` app users, seeded in one statement, then VACUUM ANALYZE (as autovacuum would). */
export async function prepareListProject(db: Db, url: string, users: number): Promise<ListFixture> {
  const { org, apiKey } = await createOrgWithApiKey(db);
  const { project } = await createProject(db, org.id, { name: "Bench users", appType: "Web" }, getConfig().urlRules);
  const started = performance.now();
  await withClient(url, async (c) => {
    await seedAppUsers(c, project.id, users, CLIENT_ID_PREFIX);
    await seedReferredBy(c, project.id, users);
    await c.query(`VACUUM ANALYZE "AppUser"`);
  });
  return { organizationId: org.id, projectId: project.id, apiKey, users, seedMs: performance.now() - started };
}

export function listCases(users: number): ListCase[] {
  const lastPage = Math.max(1, Math.min(500, Math.ceil(users / DEFAULT_PAGE_SIZE)));
  const { sortBy, sortOrder } = DEFAULT_APP_USER_SORT;
  return [
    { name: `default (${sortBy} ${sortOrder})`, input: {} },
    ...APP_USER_SORT_FIELDS.flatMap((field) => SORT_ORDERS.map((order) => ({ name: `sort ${field} ${order}`, input: { sortBy: field, sortOrder: order } }))),
    { name: "hasReferrals=true", input: { hasReferrals: true } },
    { name: "search client id substring", input: { search: "0421" } },
    { name: "search exact code", input: { search: seededReferralCode(Math.ceil(users * 0.42)) } },
    { name: `page ${lastPage}`, input: { page: lastPage } },
  ];
}

const caseQuery = (c: ListCase) => ({ ...listAppUsersQuery.parse({}), ...c.input });

/** The REST query string for a domain input, in the spec's PascalCase names. */
const restQuery = (input: ListQuery) =>
  new URLSearchParams(Object.entries(input).map(([k, v]) => [k.charAt(0).toUpperCase() + k.slice(1), String(v)])).toString();

/** Each case `runs` times through listAppUsers and `runs` times through the REST handler, after warm-up calls. */
export async function measureListCases(db: Db, f: ListFixture, cases: ListCase[], runs: number): Promise<ListCaseResult[]> {
  const call = restClient(db, f.apiKey);
  const results: ListCaseResult[] = [];
  for (const c of cases) {
    const query = caseQuery(c);
    const viaDomain = () => listAppUsers(db, f.organizationId, f.projectId, query);
    const viaRest = async () => {
      const res = await call("GET", `/projects/${f.projectId}/users?${restQuery(c.input)}`);
      if (res.status !== 200) throw new Error(`REST list (${c.name}) answered ${res.status}: ${res.text}`);
      return res.json as { totalCount: number };
    };
    const { totalCount, totalCountExact } = await viaDomain();
    await timeSequential(WARMUP_RUNS, viaDomain);
    await timeSequential(WARMUP_RUNS, viaRest);
    const domain = summarize(await timeSequential(runs, viaDomain));
    const rest = summarize(await timeSequential(runs, viaRest));
    results.push({ name: c.name, input: c.input, totalCount, totalCountExact, domain, rest });
  }
  return results;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the SQL that listAppUsers really sends for a case, with its parameters.
 */
export async function explainCase(url: string, f: ListFixture, c: ListCase): Promise<string> {
  const captured = await captureQueries(url, (db) => listAppUsers(db, f.organizationId, f.projectId, caseQuery(c)));
  const listQueries = captured.filter((q) => /^SELECT\b/i.test(q.sql.trim()) && q.sql.includes('"AppUser"'));
  return withClient(url, async (client) => {
    const sections: string[] = [];
    for (const q of listQueries) {
      const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, q.params);
      sections.push([`-- ${q.sql}`, `-- params: ${JSON.stringify(q.params)}`, ...rows.map((r) => r["QUERY PLAN"])].join("\n"));
    }
    return sections.join("\n\n");
  });
}
