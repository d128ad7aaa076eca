import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDb, withClient, type TestDb } from "@/test/db";

/*
 * The day roll-ups' rows are raised by every write of their day (migration
 * 20261129120000_day_rollup_fillfactor): their dead versions must be pruned long before the page
 * fills, or each raise walks a chain of up to 80 of them. pgstattuple counts the versions left.
 */
describe.skipIf(!inject("templateDatabase"))("the day roll-ups' dead row versions", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.drop());

  it("stay few while one row takes many raises, each in a transaction of its own", async () => {
    await withClient(t.url!, async (client) => {
      await client.query(`CREATE EXTENSION IF NOT EXISTS pgstattuple`);
      await client.query(`INSERT INTO "Organization" ("id", "clientId", "name") VALUES ('o', 'cl_o', 'Org')`);
      await client.query(`INSERT INTO "Project" ("id", "organizationId", "name", "appType", "secretHash", "secretPrefix", "publishableKey", "updatedAt")
        VALUES ('p', 'o', 'P', 'Web', 'h', 's', 'pk_p', now())`);
      // 100 raises of one row: at the default fill factor the first prune comes after 100 to 140 versions
      // (as many as fit in nine tenths of the page), so all of them would be dead now; at 10, one comes
      // every ten or so.
      for (let i = 0; i < 100; i++) {
        await client.query(`SELECT "referloop_add_referral_day"('p', DATE '2026-11-29', 0, 1, 0)`);
        await client.query(`SELECT "referloop_add_reward_event_day"('p', DATE '2026-11-29', 'purchase', 'Claimed', NULL, 1)`);
      }
      const dead = async (table: string) =>
        Number((await client.query(`SELECT dead_tuple_count FROM pgstattuple($1)`, [`"${table}"`])).rows[0].dead_tuple_count);
      const { rows } = await client.query(`SELECT sum("completed")::int AS "completed" FROM "ReferralDay" WHERE "projectId" = 'p'`);
      expect(rows[0].completed).toBe(100);
      expect(await dead("ReferralDay")).toBeLessThan(30);
      expect(await dead("RewardEventDay")).toBeLessThan(30);
    });
  });
});
