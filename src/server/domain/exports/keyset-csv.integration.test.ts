import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@/generated/prisma/client";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject } from "@/test/fixtures";
import { keysetCsv } from "./keyset-csv";

/*
 * keysetCsv with batches of 3 rows, so that every edge is a few rows away: a file that ends exactly
 * at a batch's end, ties on the time broken by id across a batch's end, rows written while the
 * export runs.
 */

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.drop();
});

const LIMIT = 3;

/** A project with `count` app users, every other one created at the same instant. */
async function projectWithUsers(count: number) {
  const { project } = await createOrgWithProject(t.db);
  await t.db.$executeRaw`
    INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "createdAt", "updatedAt")
    SELECT md5(${project.id} || n)::uuid::text, ${project.id}, 'user-' || n, lpad(n::text, 6, '0'),
      CASE WHEN n % 2 = 0 THEN TIMESTAMP '2026-01-01 00:00:00' ELSE TIMESTAMP '2026-01-01 00:00:00' + n * INTERVAL '1 second' END, now()
    FROM generate_series(1, ${count}::int) AS n`;
  return project.id;
}

const usersOf = (projectId: string) => ({
  columns: Prisma.sql`u."id", u."clientProvidedId", u."createdAt"`,
  from: Prisma.sql`"AppUser" u WHERE u."projectId" = ${projectId}`,
  at: Prisma.sql`u."createdAt"`,
  id: Prisma.sql`u."id"`,
});

/** The export's chunks, each parsed. */
async function chunksOf(body: AsyncIterable<Uint8Array>): Promise<string[][][]> {
  const chunks: string[][][] = [];
  for await (const chunk of body) chunks.push(parse(Buffer.from(chunk).toString("utf8")));
  return chunks;
}

describe("keysetCsv", () => {
  it.each([0, 1, LIMIT - 1, LIMIT, LIMIT + 1, 2 * LIMIT, 3 * LIMIT + 2])("writes %i rows once each, by time then id, one chunk per batch", async (count) => {
    const projectId = await projectWithUsers(count);
    const chunks = await chunksOf(keysetCsv(t.db, usersOf(projectId), LIMIT));
    expect(chunks.map((c) => c.length)).toEqual(Array.from({ length: Math.ceil(count / LIMIT) }, (_, i) => Math.min(LIMIT, count - i * LIMIT)));
    const rows = chunks.flat();
    const expected = await t.db.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "AppUser" WHERE "projectId" = ${projectId} ORDER BY "createdAt", "id"`;
    expect(rows.map((r) => r[0])).toEqual(expected.map((u) => u.id));
    expect(rows.every((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(r[2]!))).toBe(true);
  });

  it("includes rows written during the export after the position reached, and not those before it", async () => {
    const projectId = await projectWithUsers(4 * LIMIT);
    const body = keysetCsv(t.db, usersOf(projectId), LIMIT);
    const first = await body.next();
    expect(first.done).toBe(false);
    await t.db.appUser.createMany({
      data: [
        { projectId, clientProvidedId: "late-early", referralCode: "EARLY1", createdAt: new Date("2025-12-31T00:00:00Z") },
        { projectId, clientProvidedId: "late-last", referralCode: "LAST01", createdAt: new Date("2026-02-01T00:00:00Z") },
      ],
    });
    const rest = (await chunksOf(body)).flat();
    const clientIds = [...parse(Buffer.from(first.value!).toString("utf8")), ...rest].map((r: string[]) => r[1]);
    expect(clientIds).toHaveLength(4 * LIMIT + 1);
    expect(clientIds.at(-1)).toBe("late-last");
    expect(clientIds).not.toContain("late-early");
  });

  it("applies a row's preparation before it is written", async () => {
    const projectId = await projectWithUsers(LIMIT + 1);
    const chunks = await chunksOf(keysetCsv(t.db, { ...usersOf(projectId), prepare: (row) => (row[1] = `=${row[1]}`) }, LIMIT));
    expect(chunks.flat().every((r) => r[1]!.startsWith("'=user-"))).toBe(true);
  });
});
