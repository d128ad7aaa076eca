import { describe, expect, inject, it } from "vitest";
import { withDatabaseBefore } from "@/test/migrations";
import { applyMigrations } from "./migrate";

/*
 * The migration that takes the open days out of the roll-ups: before it, triggers counted every day;
 * after it, the open days (from openFrom on) are counted from the rows. A database upgraded with rows
 * on both kinds of day shows the same figures, and its open days close into the same roll-ups.
 */
const MIGRATION = "20261130000000_open_days_counted_from_rows";

type Figures = Record<string, { tracked: number; completed: number; failed: number; claimed: number; refused: number }>;

/** Every day's figures of project 'p' from the roll-ups alone (what the overview read before the migration). */
const FROM_ROLLUPS = `
  SELECT to_char("day", 'YYYY-MM-DD') AS "day", sum("tracked")::int AS "tracked", sum("completed")::int AS "completed", sum("failed")::int AS "failed",
    0 AS "claimed", 0 AS "refused" FROM "ReferralDay" WHERE "projectId" = 'p' GROUP BY 1
  UNION ALL
  SELECT to_char("day", 'YYYY-MM-DD'), 0, 0, 0, sum("count") FILTER (WHERE "outcome" = 'Claimed')::int, coalesce(sum("count") FILTER (WHERE "outcome" <> 'Claimed'), 0)::int
  FROM "RewardEventDay" WHERE "projectId" = 'p' GROUP BY 1`;

/** The open days' figures from the rows, as the overview counts them after the migration. */
const FROM_OPEN_ROWS = `
  SELECT to_char("createdAt"::date, 'YYYY-MM-DD') AS "day", count(*)::int AS "tracked", 0 AS "completed", 0 AS "failed", 0 AS "claimed", 0 AS "refused"
  FROM "ReferralTracking" WHERE "projectId" = 'p' AND "createdAt" >= (SELECT "openFrom" FROM "DayRollupState") GROUP BY 1
  UNION ALL
  SELECT to_char("claimedAt"::date, 'YYYY-MM-DD'), 0, count(*)::int, 0, 0, 0
  FROM "RewardHistory" WHERE "projectId" = 'p' AND "claimedAt" >= (SELECT "openFrom" FROM "DayRollupState") GROUP BY 1
  UNION ALL
  SELECT to_char("createdAt"::date, 'YYYY-MM-DD'), 0, 0, 0, count(*)::int, 0
  FROM "RewardEvent" WHERE "projectId" = 'p' AND "outcome" = 'Claimed' AND "createdAt" >= (SELECT "openFrom" FROM "DayRollupState") GROUP BY 1`;

function figures(rows: { day: string; tracked: number; completed: number; failed: number; claimed: number | null; refused: number }[]): Figures {
  const out: Figures = {};
  for (const r of rows) {
    const d = (out[r.day] ??= { tracked: 0, completed: 0, failed: 0, claimed: 0, refused: 0 });
    d.tracked += r.tracked;
    d.completed += r.completed;
    d.failed += r.failed;
    d.claimed += r.claimed ?? 0;
    d.refused += r.refused;
  }
  for (const [day, d] of Object.entries(out)) if (Object.values(d).every((n) => n === 0)) delete out[day];
  return out;
}

describe.skipIf(!inject("templateDatabase"))("the open days migration", () => {
  it("keeps every day's figures, the open ones now counted from the rows, and closes them into the same roll-ups", { timeout: 60_000 }, async () => {
    await withDatabaseBefore(MIGRATION, async (db) => {
      await db.query(`
        INSERT INTO "Organization" ("id", "clientId", "name") VALUES ('o', 'cl_o', 'Org');
        INSERT INTO "Project" ("id", "organizationId", "name", "appType", "secretHash", "secretPrefix", "publishableKey", "updatedAt")
          VALUES ('p', 'o', 'P', 'Web', 'h', 's', 'pk_p', now());
        INSERT INTO "Campaign" ("id", "projectId", "referrerExperience", "newUserExperience", "updatedAt") VALUES ('c', 'p', '{}', '{}', now());
        INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "updatedAt")
          VALUES ('ada', 'p', 'ada', 'A00001', now()), ('bob', 'p', 'bob', 'B00001', now()), ('cy', 'p', 'cy', 'C00001', now()),
            ('dee', 'p', 'dee', 'D00001', now());
        -- An old day's item and reward, and today's: one claimed, one failed, one pending.
        INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referralCode", "referrerId", "refereeId", "status", "failureReason", "createdAt", "updatedAt")
          VALUES ('old', 'p', 'c', 'A00001', 'ada', 'bob', 'Completed', NULL, '2026-10-02 12:00', '2026-10-02 12:00'),
            ('won', 'p', 'c', 'A00001', 'ada', 'cy', 'Completed', NULL, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'),
            ('lost', 'p', 'c', 'A00001', 'ada', 'cy', 'Failed', 'duplicate_referee', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'),
            ('waits', 'p', 'c', 'A00001', 'ada', 'dee', 'Pending', NULL, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC');
        INSERT INTO "RewardHistory" ("id", "projectId", "trackingId", "referrerId", "refereeId", "eventName", "claimedAt")
          VALUES ('h-old', 'p', 'old', 'ada', 'bob', 'purchase', '2026-10-03 08:00'), ('h-won', 'p', 'won', 'ada', 'cy', 'purchase', now() AT TIME ZONE 'UTC');
        INSERT INTO "RewardEvent" ("id", "projectId", "trackingId", "eventName", "outcome", "reason", "createdAt")
          VALUES ('e-old', 'p', 'old', 'purchase', 'Claimed', NULL, '2026-10-03 08:00'), ('e-won', 'p', 'won', 'purchase', 'Claimed', NULL, now() AT TIME ZONE 'UTC'),
            ('e-lost', 'p', 'lost', 'purchase', 'Rejected', 'duplicate_referee', now() AT TIME ZONE 'UTC');`);
      const before = figures((await db.query(FROM_ROLLUPS)).rows);
      const today = new Date().toISOString().slice(0, 10);
      expect(before[today]).toEqual({ tracked: 3, completed: 1, failed: 1, claimed: 1, refused: 1 });
      expect(before["2026-10-02"]).toMatchObject({ tracked: 1 });

      expect(await applyMigrations(db)).toContain(MIGRATION);
      // The open days left the roll-ups (but their failures and refusals), and are counted from the rows instead.
      const after = figures([...(await db.query(FROM_ROLLUPS)).rows, ...(await db.query(FROM_OPEN_ROWS)).rows]);
      expect(after).toEqual(before);
      const { rows: open } = await db.query(`SELECT coalesce(sum("tracked") + sum("completed"), 0)::int AS "n" FROM "ReferralDay" WHERE "day" >= (SELECT "openFrom" FROM "DayRollupState")`);
      expect(open[0].n).toBe(0);

      // Closed, the open days are in the roll-ups again, as the triggers had counted them.
      await db.query(`SELECT "referloop_close_days"(CAST($1 AS date) + 1)`, [today]);
      expect(figures((await db.query(FROM_ROLLUPS)).rows)).toEqual(before);
      expect(figures((await db.query(FROM_OPEN_ROWS)).rows)).toEqual({});
    });
  });
});
