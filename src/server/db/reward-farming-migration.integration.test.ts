import { describe, expect, inject, it } from "vitest";
import { withDatabaseBefore } from "@/test/migrations";
import { applyMigrations } from "./migrate";

/*
 * The farming-rules migration on a database that already holds farmed rewards (a referee rewarded
 * through two referrers, a pair rewarded both ways): it must apply, keep every reward, and leave the
 * new unique indexes enforcing the rules from then on.
 */
const MIGRATION = "20261122200100_reward_farming_rules";

describe.skipIf(!inject("templateDatabase"))("the reward-farming migration", () => {
  it("keeps earlier rewards that break the rules as grandfathered, and enforces the rules for new ones", { timeout: 60_000 }, async () => {
    await withDatabaseBefore(MIGRATION, async (db) => {
      await db.query(`
        INSERT INTO "Organization" ("id", "clientId", "name") VALUES ('o', 'cl_o', 'Org');
        INSERT INTO "Project" ("id", "organizationId", "name", "appType", "secretHash", "secretPrefix", "publishableKey", "updatedAt") VALUES ('p', 'o', 'P', 'Web', 'h', 's', 'pk_p', now());
        INSERT INTO "Campaign" ("id", "projectId", "referrerExperience", "newUserExperience", "updatedAt") VALUES ('c', 'p', '{}', '{}', now());
        INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "updatedAt")
          SELECT u, 'p', u, u, now() FROM unnest(ARRAY['a', 'b', 'r1', 'r2', 'x', 'y']) AS u;
        INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "refereeId", "referralCode", "status", "updatedAt")
          SELECT id, 'p', 'c', referrer, referee, referrer, 'Completed', now()
          FROM (VALUES ('t1', 'r1', 'a'), ('t2', 'r2', 'a'), ('t3', 'x', 'y'), ('t4', 'y', 'x'), ('t5', 'b', 'r1')) AS v(id, referrer, referee);
        INSERT INTO "RewardHistory" ("id", "projectId", "trackingId", "referrerId", "refereeId", "claimedAt")
          SELECT id, 'p', tracking, referrer, referee, at::timestamp
          FROM (VALUES ('h1', 't1', 'r1', 'a', '2026-01-01'), ('h2', 't2', 'r2', 'a', '2026-01-02'),
                       ('h3', 't3', 'x', 'y', '2026-01-03'), ('h4', 't4', 'y', 'x', '2026-01-04'),
                       ('h5', 't5', 'b', 'r1', '2026-01-05')) AS v(id, tracking, referrer, referee, at);`);

      expect(await applyMigrations(db)).toContain(MIGRATION);
      const { rows } = await db.query<{ id: string; grandfathered: boolean }>(`SELECT "id", "grandfathered" FROM "RewardHistory" ORDER BY "id"`);
      expect(rows).toEqual([
        { id: "h1", grandfathered: false },
        { id: "h2", grandfathered: true }, // a's second reward
        { id: "h3", grandfathered: false },
        { id: "h4", grandfathered: true }, // y and x the other way round
        { id: "h5", grandfathered: false },
      ]);

      const insert = async (id: string, referrer: string, referee: string) => {
        await db.query(
          `INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "refereeId", "referralCode", "updatedAt") VALUES ($1, 'p', 'c', $2, $3, 'code', now())`,
          [id, referrer, referee],
        );
        await db.query(`INSERT INTO "RewardHistory" ("id", "projectId", "trackingId", "referrerId", "refereeId") VALUES ($1, 'p', $1, $2, $3)`, [id, referrer, referee]);
      };
      await expect(insert("n1", "b", "a")).rejects.toThrow(/RewardHistory_refereeId_key/);
      await expect(insert("n2", "r1", "b")).rejects.toThrow(/RewardHistory_pair_key/);
      await insert("n3", "a", "b");
    });
  });
});
