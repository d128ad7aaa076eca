import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getConfig } from "@/server/config";
import { openPostgres, type Db } from "@/server/db/client";
import { createTestDb, type TestDb } from "@/test/db";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.drop();
});

/** The backends that answered `n` statements sent at once, each holding its connection for a moment. */
async function backendsOf(db: Db, n: number): Promise<Set<number>> {
  const rows = await Promise.all(
    Array.from({ length: n }, () => db.$queryRaw<[{ pid: number }]>`SELECT pg_backend_pid() AS "pid", pg_sleep(0.05)::text AS "slept"`),
  );
  return new Set(rows.map(([row]) => row.pid));
}

// PostgreSQL only: the embedded PGlite is one connection, without a pool.
describe.skipIf(!inject("templateDatabase"))("the database pool", () => {
  it("opens at most its size of connections, however many statements wait, and the process's size from the configuration", async () => {
    const url = t.url!;
    const three = openPostgres(url, 3);
    try {
      const backends = await backendsOf(three, 12);
      expect(backends.size).toBe(3);
    } finally {
      await three.$disconnect();
    }
    const configured = openPostgres(url);
    try {
      const size = getConfig().databasePoolSize;
      expect((await backendsOf(configured, size + 4)).size).toBe(size);
    } finally {
      await configured.$disconnect();
    }
  });
});
