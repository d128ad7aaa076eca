import { describe, expect, inject, it } from "vitest";
import { withDatabaseBefore } from "@/test/migrations";
import { applyMigrations } from "./migrate";

/*
 * The migration that keeps each delivery's parties on it: deliveries written before it get their
 * items' parties as they stand (null where a party was erased), and a test event (no item) none.
 */
const MIGRATION = "20261127170000_delivery_parties";

describe.skipIf(!inject("templateDatabase"))("the delivery parties migration", () => {
  it("copies each delivery's item's parties, erased ones null, none for a test event", { timeout: 60_000 }, async () => {
    await withDatabaseBefore(MIGRATION, async (db) => {
      await db.query(`
        INSERT INTO "Organization" ("id", "clientId", "name") VALUES ('o', 'cl_o', 'Org');
        INSERT INTO "Project" ("id", "organizationId", "name", "appType", "secretHash", "secretPrefix", "publishableKey", "updatedAt")
          VALUES ('p', 'o', 'P', 'Web', 'h', 's', 'pk_p', now());
        INSERT INTO "Campaign" ("id", "projectId", "referrerExperience", "newUserExperience", "updatedAt") VALUES ('c', 'p', '{}', '{}', now());
        INSERT INTO "Webhook" ("id", "projectId", "campaignId", "name", "url", "secretEncrypted", "secretHint", "updatedAt")
          VALUES ('w', 'p', 'c', 'hook', 'https://hooks.example.com/r', 'x', 'x', now());
        INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "updatedAt")
          VALUES ('ada', 'p', 'ada', 'A00001', now()), ('bob', 'p', 'bob', 'B00001', now());
        INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referralCode", "referrerId", "refereeId", "updatedAt")
          VALUES ('both', 'p', 'c', 'A00001', 'ada', 'bob', now()), ('erased', 'p', 'c', 'A00001', 'ada', NULL, now());
        INSERT INTO "Delivery" ("id", "projectId", "webhookId", "trackingId", "eventName", "updatedAt")
          VALUES ('d1', 'p', 'w', 'both', 'purchase', now()), ('d2', 'p', 'w', 'erased', 'purchase', now()),
            ('d3', 'p', 'w', NULL, 'referloop.test', now());`);

      expect(await applyMigrations(db)).toContain(MIGRATION);
      const { rows } = await db.query(`SELECT "id", "referrerId", "refereeId" FROM "Delivery" ORDER BY "id"`);
      expect(rows).toEqual([
        { id: "d1", referrerId: "ada", refereeId: "bob" },
        { id: "d2", referrerId: "ada", refereeId: null },
        { id: "d3", referrerId: null, refereeId: null },
      ]);
    });
  });
});
