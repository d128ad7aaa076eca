import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { claimRewardIn } from "@/server/domain/referrals/claim-reward";
import { isBound, loadRewardItem } from "@/server/domain/referrals/load-reward-item";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";
import { uniqueName as uid } from "@/test/names";

/*
 * A claim writes its tracking item in place (migration 20261129210000_claim_in_place): no index holds
 * a column it changes, so PostgreSQL makes it a HOT update, without a new entry in any of the item's
 * indexes. An index on the status (or on rewardClaimed, rewardClaimedAt, updatedAt) would make every
 * reward pay six index entries again; these tests fail then. The Failed and Revoked filters read
 * partial indexes on failureReason and revokedAt, complete only while CHECK constraints hold every
 * item of those statuses to them.
 */
let t: TestDb;
let f: OrgWithProject;

beforeAll(async () => {
  t = await createTestDb();
  f = await createOrgWithProject(t.db);
});
afterAll(() => t?.drop());

async function boundItem() {
  const { user } = await getOrCreateAppUser(t.db, f.project.id, { clientProvidedId: uid("referrer") });
  const tracked = await trackReferral(t.db, f.org.id, f.project.id, { referralCode: user.referralCode, refereeId: uid("referee") });
  return tracked.referralTrackingId;
}

describe("a reward's claim", () => {
  it("is a HOT update of its tracking item", async () => {
    const id = await boundItem();
    const counted = await t.db.$transaction(async (tx) => {
      const { project, item } = await loadRewardItem(tx, f.org.id, f.project.id, id);
      if (!isBound(item)) throw new Error("the item has no referee");
      const result = await claimRewardIn(tx, { project, item, eventName: "purchase", environment: null }, null);
      expect(result.rewardClaimed).toBe(true);
      // This transaction's own counts, so no other writer and no statistics delay can move them.
      // Nor does it write a day roll-up: an open day's rewards are counted from the rows (open-days.ts).
      const [row] = await tx.$queryRaw<[{ updated: number; hot: number; rollups: number }]>`
        SELECT pg_stat_get_xact_tuples_updated('"ReferralTracking"'::regclass)::int AS "updated",
          pg_stat_get_xact_tuples_hot_updated('"ReferralTracking"'::regclass)::int AS "hot",
          (pg_stat_get_xact_tuples_inserted('"ReferralDay"'::regclass) + pg_stat_get_xact_tuples_updated('"ReferralDay"'::regclass)
            + pg_stat_get_xact_tuples_inserted('"RewardEventDay"'::regclass) + pg_stat_get_xact_tuples_updated('"RewardEventDay"'::regclass))::int AS "rollups"`;
      return row;
    });
    expect(counted).toEqual({ updated: 1, hot: 1, rollups: 0 });
    expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id }, select: { status: true, rewardClaimed: true } })).toEqual({ status: "Completed", rewardClaimed: true });
  });

  it("finds no index on a column it writes, and room on the item's page", async () => {
    const rows = await t.db.$queryRaw<{ definition: string }[]>`
      SELECT pg_get_indexdef("indexrelid") AS "definition" FROM pg_index WHERE "indrelid" = '"ReferralTracking"'::regclass`;
    expect(rows.length).toBeGreaterThan(3);
    for (const { definition } of rows) expect(definition).not.toMatch(/\b(status|"rewardClaimed"|"rewardClaimedAt"|"updatedAt")/);
    const [table] = await t.db.$queryRaw<[{ options: string[] | null }]>`SELECT "reloptions" AS "options" FROM pg_class WHERE "oid" = '"ReferralTracking"'::regclass`;
    expect(table.options).toContain("fillfactor=85");
  });
});

describe("the Failed and Revoked statuses", () => {
  it("cannot be set without failureReason and revokedAt", async () => {
    const id = await boundItem();
    const set = (data: object) => t.db.referralTracking.update({ where: { id }, data });
    await expect(set({ status: "Failed" })).rejects.toThrow(/ReferralTracking_failed_reason_check/);
    await expect(set({ status: "Revoked" })).rejects.toThrow(/ReferralTracking_revoked_at_check/);
    await expect(set({ status: "Failed", failureReason: "expired" })).resolves.toMatchObject({ status: "Failed" });
  });
});
