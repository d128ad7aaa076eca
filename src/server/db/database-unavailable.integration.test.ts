import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import { requestScope } from "@/server/api/trpc/context";
import { openPostgres, type Db } from "@/server/db/client";
import { testServices } from "@/test/config";
import { adminQuery, createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject } from "@/test/fixtures";
import { restClient } from "@/test/rest";
import { isDatabaseUnavailable } from "./database-unavailable";

/*
 * A database that cannot serve (refused connections, sessions cut by a restart) answers 503 problems
 * with Retry-After, from real Prisma errors against a real PostgreSQL; a wrong query stays a 500.
 */

let t: TestDb;
/** The same database's address with nothing listening: every connection is refused. */
let refused: Db;
beforeAll(async () => {
  t = await createTestDb();
  refused = openPostgres("postgresql://postgres@127.0.0.1:1/referloop");
});
afterAll(async () => {
  await refused?.$disconnect();
  await t?.drop();
});

const failure = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

describe("isDatabaseUnavailable", () => {
  it("is true for a refused connection, by model query, raw query and transaction", async () => {
    expect(isDatabaseUnavailable(await failure(refused.project.findFirst()))).toBe(true);
    expect(isDatabaseUnavailable(await failure(refused.$queryRaw`SELECT 1`))).toBe(true);
    expect(isDatabaseUnavailable(await failure(refused.$transaction((tx) => tx.project.findFirst())))).toBe(true);
  });

  it("is true for a session cut by a shutdown (57P01), and the next query gets a fresh connection", async () => {
    if (!t.url) return; // embedded PGlite has no server sessions to cut
    const name = new URL(t.url).pathname.slice(1);
    const sleeping = failure(t.db.$queryRaw`SELECT pg_sleep(10)`);
    await expect.poll(async () => (await adminQuery(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = '${name}' AND query LIKE 'SELECT pg_sleep%'`)).rows[0].n).toBe(1);
    await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
    expect(isDatabaseUnavailable(await sleeping)).toBe(true);
    expect(await t.db.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });

  it("is false for errors of the request or the code: a unique violation, a syntax error, a plain error", async () => {
    const { org } = await createOrgWithProject(t.db);
    const duplicate = await failure(t.db.organization.create({ data: { name: "copy", clientId: org.clientId } }));
    expect(duplicate).toBeTruthy();
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
    expect(isDatabaseUnavailable(await failure(t.db.$queryRawUnsafe("SELEC 1")))).toBe(false);
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});

describe("the API while the database is unavailable", () => {
  it("answers REST calls with a 503 problem, Retry-After and the request id", async () => {
    const { project } = await createOrgWithProject(t.db);
    // The API key's lookup is the first query to fail.
    const call = restClient(refused, "rl_any-key");
    for (const [method, path, body] of [
      ["GET", `/projects/${project.id}/users/by-user-id/ada`, undefined],
      ["POST", `/projects/${project.id}/referrals/track`, { referralCode: "Abc123", refereeId: "bob" }],
    ] as const) {
      const res = await call(method, path, { body });
      expect(res.status, res.text).toBe(503);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(res.json).toMatchObject({ type: "urn:referloop:problem:unavailable", status: 503, detail: "The database is unavailable; retry in 5 s." });
    }
  });

  it("fails a procedure with SERVICE_UNAVAILABLE for the dashboard too", async () => {
    const headers = new Headers();
    const caller = createCaller({ ...testServices(refused), ...requestScope(headers), headers, via: "trpc", actor: null });
    await expect(caller.accounts.signUp({ email: "a@example.com", password: "correct horse battery staple", organizationName: "A" })).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
    });
  });
});
