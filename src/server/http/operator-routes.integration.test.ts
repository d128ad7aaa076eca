import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationNames } from "@/server/db/migrate";
import { openPostgres, type Db } from "@/server/db/client";
import { metricsText } from "@/server/observability/metrics";
import { createApiKey } from "@/server/domain/api-keys/create-api-key";
import { adminQuery, createTestDb, databaseUrl, type TestDb } from "@/test/db";
import { uniqueName } from "@/test/names";
import { restClient } from "@/test/rest";
import { insertPendingItem, createRewardSetup } from "@/test/delivery-fixtures";
import type { ApiAnswer, ApiRequest } from "./api-exchange";
import type { Route } from "./front-door";
import { operatorRoutes } from "./operator-routes";

let t: TestDb;
let migrations: string[];
const TOKEN = "a-metrics-token-of-some-length";

beforeAll(async () => {
  t = await createTestDb();
  migrations = await migrationNames();
  await t.db.$queryRaw`SELECT 1`; // a cold client's first query is not what readiness measures
});
afterAll(() => t.drop());

const request = (method: string, url: string, headers: Record<string, string> = {}): ApiRequest => ({
  method,
  url,
  headers: new Headers(headers),
  readBody: async () => new Uint8Array(),
});

const routesFor = (db: () => Promise<Db>, metricsToken: string | undefined) => operatorRoutes({ db, migrations, metricsToken, metrics: metricsText });

async function call(routes: Route[], path: string, method = "GET", headers: Record<string, string> = {}): Promise<ApiAnswer & { json?: unknown; text: string }> {
  const route = routes.find((r) => r.path === path)!;
  const answer = await route.handle(request(method, `http://localhost${path}`, headers));
  const text = typeof answer.body === "string" ? answer.body : "";
  return { ...answer, text, json: answer.headers.get("content-type")?.includes("json") ? JSON.parse(text) : undefined };
}

describe("/healthz and /readyz", () => {
  it("healthz answers 200 without touching the database", async () => {
    const routes = routesFor(() => Promise.reject(new Error("must not be called")), TOKEN);
    const res = await call(routes, "/healthz");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("readyz answers 200 when the database answers with every migration applied", async () => {
    const res = await call(routesFor(async () => t.db, TOKEN), "/readyz");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ready" });
  });

  it("readyz answers 503 with the reason while the database is down, naming no host", async () => {
    if (!t.url) return; // PGlite is in-process: it cannot be down on its own
    const stopped = openPostgres("postgresql://postgres@127.0.0.1:1/referloop_nowhere");
    try {
      const res = await call(routesFor(async () => stopped, TOKEN), "/readyz");
      expect(res.status).toBe(503);
      expect(res.json).toEqual({ status: "unavailable", reason: "the database does not answer" });
      expect(res.text).not.toContain("127.0.0.1");
    } finally {
      await stopped.$disconnect();
    }
  });

  it("readyz answers 503 naming the migrations a database lacks", async () => {
    if (!t.url) return;
    const name = uniqueName("referloop_unmigrated").replace(/[^a-z0-9_]/gi, "_");
    await adminQuery(`CREATE DATABASE "${name}"`);
    const empty = openPostgres(databaseUrl(name));
    try {
      await empty.$executeRawUnsafe(`CREATE TABLE "_prisma_migrations" ("migration_name" text, "finished_at" timestamptz, "rolled_back_at" timestamptz)`);
      await empty.$executeRawUnsafe(`INSERT INTO "_prisma_migrations" VALUES ('${migrations[0]}', now(), NULL)`);
      const res = await call(routesFor(async () => empty, TOKEN), "/readyz");
      expect(res.status).toBe(503);
      expect((res.json as { reason: string }).reason).toBe(`migrations not applied: ${migrations.slice(1).join(", ")} (run npm run db:migrate)`);
    } finally {
      await empty.$disconnect();
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});

describe("/metrics", () => {
  it("is not served without METRICS_TOKEN, and answers only a bearer of it", async () => {
    expect((await call(routesFor(async () => t.db, undefined), "/metrics", "GET", { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
    const routes = routesFor(async () => t.db, TOKEN);
    expect((await call(routes, "/metrics")).status).toBe(401);
    expect((await call(routes, "/metrics", "GET", { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    const ok = await call(routes, "/metrics", "GET", { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toContain("text/plain");
    expect(ok.text).toContain("referloop_http_requests_total");
  });

  it("a reward over REST moves the claimed counter, a refused one its reason", async () => {
    const claimed = async (outcome: string, reason: string) =>
      Number(new RegExp(`referloop_reward_events_total\\{outcome="${outcome}",reason="${reason}"\\} (\\d+)`).exec(await metricsText())?.[1] ?? 0);
    const setup = await createRewardSetup(t.db);
    const key = await createApiKey(t.db, setup.org.id, { name: "metrics", role: "owner" }, null);
    const rest = restClient(t.db, key.key);
    const item = await insertPendingItem(t.db, setup);
    const [claimedBefore, refusedBefore] = [await claimed("claimed", ""), await claimed("refused", "already_completed")];
    const path = `/api/v1/public/projects/${setup.project.id}/referrals/reward`;
    expect((await rest("POST", path, { body: { referralTrackingId: item.id } })).json).toMatchObject({ rewardClaimed: true });
    expect((await rest("POST", path, { body: { referralTrackingId: item.id } })).json).toMatchObject({ reason: "already_completed" });
    expect(await claimed("claimed", "")).toBe(claimedBefore + 1);
    expect(await claimed("refused", "already_completed")).toBe(refusedBefore + 1);
  });
});
