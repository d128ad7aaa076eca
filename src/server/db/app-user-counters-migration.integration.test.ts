import { describe, expect, inject, it } from "vitest";
import { withDatabaseBefore } from "@/test/migrations";
import { applyMigrations } from "./migrate";

/*
 * The migration that moves the referral counters off AppUser, on a database with users whose counters
 * have moved: every value must arrive in AppUserCounters, and users created afterwards get their row.
 */
const MIGRATION = "20261126160000_app_user_counters";

describe.skipIf(!inject("templateDatabase"))("the app-user counters migration", () => {
  it("keeps every user's counters, and gives users created afterwards a row of zeros", { timeout: 60_000 }, async () => {
    await withDatabaseBefore(MIGRATION, async (db) => {
      await db.query(`
        INSERT INTO "Organization" ("id", "clientId", "name") VALUES ('o', 'cl_o', 'Org');
        INSERT INTO "Project" ("id", "organizationId", "name", "appType", "secretHash", "secretPrefix", "publishableKey", "updatedAt")
          VALUES ('p', 'o', 'P', 'Web', 'h', 's', 'pk_p', now()), ('q', 'o', 'Q', 'Web', 'h2', 's2', 'pk_q', now());
        INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "totalReferralsGiven", "successfulReferrals", "updatedAt")
          VALUES ('a', 'p', 'a', 'A00001', 7, 3, now()), ('b', 'p', 'b', 'B00001', 0, 0, now()), ('c', 'q', 'c', 'C00001', 2, 2, now());`);

      expect(await applyMigrations(db)).toContain(MIGRATION);
      const { rows } = await db.query(`SELECT * FROM "AppUserCounters" ORDER BY "appUserId"`);
      expect(rows).toEqual([
        { appUserId: "a", projectId: "p", totalReferralsGiven: 7, successfulReferrals: 3 },
        { appUserId: "b", projectId: "p", totalReferralsGiven: 0, successfulReferrals: 0 },
        { appUserId: "c", projectId: "q", totalReferralsGiven: 2, successfulReferrals: 2 },
      ]);
      const { rows: columns } = await db.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'AppUser' AND column_name IN ('totalReferralsGiven', 'successfulReferrals')`,
      );
      expect(columns).toEqual([]);

      await db.query(`INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "updatedAt") VALUES ('d', 'q', 'd', 'D00001', now())`);
      const { rows: created } = await db.query(`SELECT * FROM "AppUserCounters" WHERE "appUserId" = 'd'`);
      expect(created).toEqual([{ appUserId: "d", projectId: "q", totalReferralsGiven: 0, successfulReferrals: 0 }]);
    });
  });
});
