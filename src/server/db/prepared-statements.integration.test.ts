import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { listAppUsersQuery } from "@/lib/schemas/app-users";
import { getAppUserByClientId } from "@/server/domain/app-users/get-app-user-by-client-id";
import { listAppUsers } from "@/server/domain/app-users/list-app-users";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";
import pg from "pg";
import { Prisma } from "@/generated/prisma/client";
import { isUniqueViolation } from "@/server/domain/db-errors";
import { planned, plannedEachRow, prepared, preparedStatementName, queryWithSettings } from "./prepared-statements";

/*
 * Statements written with prepared() are parsed once per connection and PostgreSQL may keep a generic
 * plan; the rest (the app-user search among them) are planned for their values each time. Checked on
 * the connection itself (pg_prepared_statements is per session): inside one transaction, where they
 * go through Prisma, and outside, where they go to the pool directly (which lends one idle connection
 * to calls made one after another).
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
async function preparedBy(calls: (db: Db) => Promise<unknown>, where: "transaction" | "pool" = "transaction"): Promise<Prepared[]> {
  const onConnection = async (db: Db) => {
    const read = () => prepared<Prepared>(db)`
      SELECT "name", "statement", ("generic_plans" + "custom_plans")::int AS "executions" FROM pg_prepared_statements`;
    const before = new Map((await read()).map((p) => [p.name, p.executions]));
    await calls(db);
    return (await read())
      .map((p) => ({ ...p, executions: p.executions - (before.get(p.name) ?? 0) }))
      .filter((p) => p.executions > 0 && !p.statement.includes("pg_prepared_statements"));
  };
  return where === "pool" ? onConnection(t.db) : t.db.$transaction((tx) => onConnection(tx as unknown as Db));
}

describe("prepared statements", () => {
  it("parses a marked statement once per connection and runs it again by name", async ({ skip }) => {
    if (!t.url) skip("PGlite's adapter sends no statement names");
    const statements = await preparedBy(async (db) => {
      for (let i = 0; i < 6; i++) expect((await getAppUserByClientId(db, o.org.id, o.project.id, "user-42")).clientProvidedId).toBe("user-42");
    });
    expect(statements).toEqual([{ name: expect.stringMatching(/^referloop_\d+$/), statement: expect.stringContaining("LEFT JOIN \"AppUser\" u"), executions: 6 }]);
  });

  it("does the same outside a transaction, where the statement skips Prisma's engine", async ({ skip }) => {
    if (!t.url) skip("PGlite's adapter sends no statement names");
    const statements = await preparedBy(async (db) => {
      for (let i = 0; i < 6; i++) expect((await getAppUserByClientId(db, o.org.id, o.project.id, "user-42")).clientProvidedId).toBe("user-42");
    }, "pool");
    expect(statements).toEqual([{ name: expect.stringMatching(/^referloop_\d+$/), statement: expect.stringContaining("LEFT JOIN \"AppUser\" u"), executions: 6 }]);
  });

  it("sends values and returns results as Prisma does, in and outside a transaction, whatever the process's time zone", async ({ onTestFinished }) => {
    // Off UTC, a timestamp read or sent as local time would be hours out.
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    onTestFinished(() => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });
    const at = new Date("2026-01-02T03:04:05.678Z");
    const statement = (db: Db) => prepared<Record<string, unknown>>(db)`
      SELECT CAST(${at} AS timestamp(3)) AS "timestamp", CAST(${at} AS timestamp(3)) = timestamp '2026-01-02 03:04:05.678' AS "storedAsUtc",
        9007199254740993::bigint AS "bigint", 7::int AS "int", 1.5::float8 AS "float", ${"{\"a\":1}"}::jsonb AS "json",
        ARRAY[${"x"}, 'y'] AS "array", ${true}::boolean AS "boolean", NULL::text AS "null", CAST(${[at]} AS timestamp(3)[]) || NULL::timestamp AS "timestamps", CAST(ARRAY[] AS timestamp[]) AS "none",
        (SELECT "createdAt" FROM "AppUser" WHERE "clientProvidedId" = 'user-42') AS "column"`;
    const direct = await statement(t.db);
    expect(direct).toEqual(await t.db.$transaction((tx) => statement(tx as unknown as Db)));
    const stored = await t.db.appUser.findFirstOrThrow({ where: { clientProvidedId: "user-42" } });
    expect(direct).toEqual([
      { timestamp: at, storedAsUtc: true, bigint: 9007199254740993n, int: 7, float: 1.5, json: { a: 1 }, array: ["x", "y"], boolean: true, null: null, timestamps: [at, null], none: [], column: stored.createdAt },
    ]);
  });

  it("fails in a way isUniqueViolation knows, in and outside a transaction", async () => {
    const duplicate = (db: Db) => prepared(db)`
      INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "updatedAt") VALUES (${"dup-" + Math.random()}, ${o.project.id}, 'user-42', 'ZZZ999', now())`;
    const direct = await duplicate(t.db).then(() => null, (error: unknown) => error);
    if (t.url) expect(direct).toBeInstanceOf(pg.DatabaseError);
    expect(isUniqueViolation(direct)).toBe(true);
    const inTransaction = await t.db.$transaction((tx) => duplicate(tx as unknown as Db)).then(() => null, (error: unknown) => error);
    expect(inTransaction).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect(isUniqueViolation(inTransaction)).toBe(true);
  });

  it("sends planned() statements to the pool directly too, outside a transaction", async () => {
    const failure = await planned(t.db)`SELECT 1 / ${0}::int`.then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(t.url ? pg.DatabaseError : Prisma.PrismaClientKnownRequestError);
    const [row] = await planned<{ at: Date; n: bigint }>(t.db)`SELECT ${new Date("2026-01-02T03:04:05.678Z")}::timestamp(3) AS "at", 7::int8 AS "n"`;
    expect(row).toEqual({ at: new Date("2026-01-02T03:04:05.678Z"), n: 7n });
  });

  it.for(["transaction", "pool"] as const)("leaves unmarked statements unnamed: a search is planned for its term every time (%s)", async (where, { skip }) => {
    if (!t.url) skip("PGlite's adapter sends no statement names");
    const statements = await preparedBy(async (db) => {
      for (let i = 0; i < 6; i++) {
        const page = await listAppUsers(db, o.org.id, o.project.id, listAppUsersQuery.parse({ search: "user-4" }));
        expect(page.items.map((u) => u.clientProvidedId)).toEqual(["user-42"]);
      }
    }, where);
    expect(statements).toEqual([]);
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

describe("queryWithSettings", () => {
  const setting = Prisma.sql`SELECT current_setting('enable_bitmapscan') AS "value"`;
  /** The setting on more connections at once than the pool holds, so every one of them is asked. */
  const everyConnection = async () =>
    (await Promise.all(Array.from({ length: 12 }, () => t.db.$queryRaw<{ value: string }[]>(setting)))).map(([row]) => row!.value);

  it("runs the statement with the settings in force, and for it alone", async () => {
    const [inside] = await queryWithSettings<{ value: string }>(t.db, "SET LOCAL enable_bitmapscan = off", setting);
    expect(inside!.value).toBe("off");
    expect(await everyConnection()).toEqual(Array(12).fill("on"));
  });

  it("rolls a failed statement back, leaving no connection inside its transaction", async () => {
    for (let i = 0; i < 12; i++) {
      await expect(queryWithSettings(t.db, "SET LOCAL enable_bitmapscan = off", Prisma.sql`SELECT 1 / ${0}::int`)).rejects.toThrow(/division by zero/);
    }
    expect(await everyConnection()).toEqual(Array(12).fill("on"));
  });
});

describe("plannedEachRow", () => {
  const workers = Prisma.sql`SELECT current_setting('max_parallel_workers_per_gather') AS "value"`;

  it("hands each row over as an array in column order, timestamps as ISO text, without parallel workers for that statement alone", async () => {
    const rows: unknown[][] = [];
    await plannedEachRow(t.db, (row) => rows.push(row))`
      SELECT 'a' || n AS "z", TIMESTAMP '2026-01-02 03:04:05.6' + n * INTERVAL '1 second' AS "at", current_setting('max_parallel_workers_per_gather') AS "workers"
      FROM generate_series(1, ${3}::int) AS n ORDER BY n`;
    expect(rows).toEqual([
      ["a1", "2026-01-02T03:04:06.600Z", "0"],
      ["a2", "2026-01-02T03:04:07.600Z", "0"],
      ["a3", "2026-01-02T03:04:08.600Z", "0"],
    ]);
    const others = await Promise.all(Array.from({ length: 12 }, () => t.db.$queryRaw<{ value: string }[]>(workers)));
    expect(others.map(([row]) => row!.value)).toEqual(Array(12).fill("2"));
  });

  it("rejects with the statement's error, or the row handler's, after the rows before it, and leaves every connection usable", async () => {
    const rows: unknown[][] = [];
    const failing = plannedEachRow(t.db, (row) => rows.push(row))`
      SELECT 10 / (3 - n) AS "q" FROM generate_series(1, ${3}::int) AS n`;
    await expect(failing).rejects.toThrow(/division by zero/);
    expect(rows).toEqual([[5], [10]]);
    const thrown = plannedEachRow(t.db, (row) => {
      if (row[0] === 2) throw new Error("refused row 2");
      rows.push(row);
    })`SELECT n FROM generate_series(1, ${3}::int) AS n`;
    await expect(thrown).rejects.toThrow("refused row 2");
    expect(rows.slice(2)).toEqual([[1]]);
    const others = await Promise.all(Array.from({ length: 12 }, () => t.db.$queryRaw<{ value: string }[]>(workers)));
    expect(others.map(([row]) => row!.value)).toEqual(Array(12).fill("2"));
  });
});
