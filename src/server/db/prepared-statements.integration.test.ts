import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { listAppUsersQuery } from "@/lib/schemas/app-users";
import { getAppUserByClientId } from "@/server/domain/app-users/get-app-user-by-client-id";
import { listAppUsers } from "@/server/domain/app-users/list-app-users";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";
import { preparedStatementName } from "./prepared-statements";

/*
 * Statements marked PREPARED are parsed once per connection and PostgreSQL may keep a generic plan;
 * the rest (the app-user search among them) are planned for their values each time. Checked on the
 * connection itself (pg_prepared_statements is per session), inside one transaction so every call
 * uses the same connection.
 */

let t: TestDb;
let o: OrgWithProject;
beforeAll(async () => {
  t = await createTestDb();
  o = await createOrgWithProject(t.db);
  await t.db.appUser.create({ data: { projectId: o.project.id, clientProvidedId: "user-42", referralCode: "ABC123" } });
});
afterAll(async () => {
  await t?.drop();
});

type Prepared = { name: string; statement: string; executions: number };

/** The prepared statements `calls` added to the connection they ran on (or ran again: executions counted since). */
async function preparedBy(calls: (db: Db) => Promise<unknown>): Promise<Prepared[]> {
  return t.db.$transaction(async (tx) => {
    const read = () => tx.$queryRaw<Prepared[]>`
      SELECT "name", "statement", ("generic_plans" + "custom_plans")::int AS "executions" FROM pg_prepared_statements`;
    const before = new Map((await read()).map((p) => [p.name, p.executions]));
    await calls(tx as unknown as Db);
    return (await read())
      .map((p) => ({ ...p, executions: p.executions - (before.get(p.name) ?? 0) }))
      .filter((p) => p.executions > 0);
  });
}

describe("prepared statements", () => {
  it("parses a marked statement once per connection and runs it again by name", async ({ skip }) => {
    if (!t.url) skip("PGlite's adapter sends no statement names");
    const prepared = await preparedBy(async (db) => {
      for (let i = 0; i < 6; i++) expect((await getAppUserByClientId(db, o.org.id, o.project.id, "user-42")).clientProvidedId).toBe("user-42");
    });
    expect(prepared).toEqual([{ name: expect.stringMatching(/^referloop_\d+$/), statement: expect.stringContaining("LEFT JOIN \"AppUser\" u"), executions: 6 }]);
  });

  it("leaves unmarked statements unnamed: a search is planned for its term every time", async ({ skip }) => {
    if (!t.url) skip("PGlite's adapter sends no statement names");
    const prepared = await preparedBy(async (db) => {
      for (let i = 0; i < 6; i++) {
        const page = await listAppUsers(db, o.org.id, o.project.id, listAppUsersQuery.parse({ search: "user-4" }));
        expect(page.items.map((u) => u.clientProvidedId)).toEqual(["user-42"]);
      }
    });
    expect(prepared).toEqual([]);
  });

  it("names each marked text once, and nothing else", () => {
    const marked = "/* prepared */ SELECT 1 WHERE $1::int = 1";
    const name = preparedStatementName({ sql: marked });
    expect(name).toMatch(/^referloop_\d+$/);
    expect(preparedStatementName({ sql: marked })).toBe(name);
    expect(preparedStatementName({ sql: `${marked} AND true` })).not.toBe(name);
    expect(preparedStatementName({ sql: "SELECT 1" })).toBe("");
  });
});
