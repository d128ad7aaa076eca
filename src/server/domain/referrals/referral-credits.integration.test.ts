import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { eraseAppUser } from "@/server/domain/app-users/erase-app-user";
import { updateCampaign } from "@/server/domain/campaigns/update-campaign";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { listAppUsers } from "@/server/domain/app-users/list-app-users";
import { listAppUsersQuery } from "@/lib/schemas/app-users";
import { grantReward } from "@/server/domain/referrals/grant-reward";
import { foldCredits, shareCredits } from "@/server/domain/referrals/referral-credits";
import { revokeReferral } from "@/server/domain/referrals/revoke-referral";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { getLeaderboard } from "@/server/domain/stats/get-leaderboard";
import { recordingScheduler } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { countedReferrals, createOrgWithProject, type OrgWithProject } from "@/test/fixtures";
import { uniqueName } from "@/test/names";

/*
 * A reward credits its referrer (a ReferralCredit row) instead of writing their counters row; the
 * fold adds the credits to the counters. Every answer counts a reward from its commit on, whether its
 * credit is folded yet or not, and a revoked reward is counted out either way.
 */
let t: TestDb;
let f: OrgWithProject;
const outbox = recordingScheduler();

beforeAll(async () => {
  t = await createTestDb();
  f = await createOrgWithProject(t.db);
});
afterAll(() => t?.drop());

/** A referrer with `n` referees tracked, not yet rewarded. */
async function referrerWith(n: number, p = f) {
  const { user } = await getOrCreateAppUser(t.db, p.project.id, { clientProvidedId: uniqueName("referrer") });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push((await trackReferral(t.db, p.org.id, p.project.id, { referralCode: user.referralCode, refereeId: uniqueName("referee") })).referralTrackingId);
  }
  return { user, ids };
}

const reward = (trackingId: string, p = f) => grantReward(t.db, p.org.id, p.project.id, { referralTrackingId: trackingId });

/** Folds without waiting, over and over, until the returned stop is called. */
function foldingThroughout() {
  let folding = true;
  const folds = (async () => {
    while (folding) await foldCredits(t.db, { wait: false });
  })();
  return async () => {
    folding = false;
    await folds;
  };
}
const revoke = (trackingId: string) => revokeReferral({ db: t.db, outbox }, f.project.id, { trackingId, reason: "refund", source: "api" });
const counter = async (appUserId: string) => (await t.db.appUserCounters.findUniqueOrThrow({ where: { appUserId } })).successfulReferrals;
const credits = (appUserId: string) => t.db.referralCredit.count({ where: { appUserId } });

describe("a reward's credit", () => {
  it("is counted from the reward's commit, and the fold moves it into the counter once", async () => {
    await foldCredits(t.db, { wait: true });
    const { user, ids } = await referrerWith(2);
    for (const id of ids) expect((await reward(id)).rewardClaimed).toBe(true);
    expect({ counter: await counter(user.id), credits: await credits(user.id), counted: await countedReferrals(t.db, user.id) }).toEqual({ counter: 0, credits: 2, counted: 2 });
    expect(await foldCredits(t.db, { wait: true })).toBe(2);
    expect({ counter: await counter(user.id), credits: await credits(user.id), counted: await countedReferrals(t.db, user.id) }).toEqual({ counter: 2, credits: 0, counted: 2 });
    expect(await foldCredits(t.db, { wait: true })).toBe(0);
    expect(await counter(user.id)).toBe(2);
  });

  it("is taken back by a revocation before the fold, and the counter lowered after it", async () => {
    const { user, ids } = await referrerWith(2);
    for (const id of ids) await reward(id);
    await revoke(ids[0]!);
    expect({ counter: await counter(user.id), credits: await credits(user.id) }).toEqual({ counter: 0, credits: 1 });
    await foldCredits(t.db, { wait: true });
    await revoke(ids[1]!);
    expect({ counter: await counter(user.id), credits: await credits(user.id), counted: await countedReferrals(t.db, user.id) }).toEqual({ counter: 0, credits: 0, counted: 0 });
  });

  it("orders the leaderboard and the user list at once: they fold first", async () => {
    const { user, ids } = await referrerWith(3);
    for (const id of ids) await reward(id);
    expect(await credits(user.id)).toBe(3);
    const [leader] = await getLeaderboard(t.db, f.project.id, 1);
    expect(leader).toMatchObject({ uniqueId: user.id, successfulReferrals: 3 });
    await reward((await referrerWith(1)).ids[0]!);
    const page = await listAppUsers(t.db, f.org.id, f.project.id, listAppUsersQuery.parse({ sortBy: "successfulReferrals", sortOrder: "desc", pageSize: 1 }));
    expect(page.items.map((u) => [u.uniqueId, u.successfulReferrals])).toEqual([[user.id, 3]]);
  });

  it("goes with its referrer's erasure", async () => {
    const { user, ids } = await referrerWith(1);
    await reward(ids[0]!);
    expect(await credits(user.id)).toBe(1);
    await t.db.$transaction((tx) => eraseAppUser(tx, f.org.id, f.project.id, user.id));
    expect(await credits(user.id)).toBe(0);
  });
});

describe("the fold beside revocations", () => {
  // Two sessions: PGlite has one.
  it.skipIf(!inject("templateDatabase"))("waits for a revocation in progress (or, from the job, folds nothing then)", async () => {
    const { user, ids } = await referrerWith(1);
    await reward(ids[0]!);
    let folded: Promise<number | null> | undefined;
    await t.db.$transaction(async (tx) => {
      await shareCredits(tx);
      expect(await foldCredits(t.db, { wait: false })).toBeNull();
      folded = foldCredits(t.db, { wait: true });
      // Still waiting while the transaction holds the lock.
      expect(await Promise.race([folded.then(() => "folded"), new Promise((resolve) => setTimeout(resolve, 200, "waiting"))])).toBe("waiting");
    });
    expect(await folded).toBeGreaterThanOrEqual(1);
    expect(await credits(user.id)).toBe(0);
  });

  it("40 rewards, half revoked, with folds running throughout: the count ends exact, never below zero", async () => {
    const { user, ids } = await referrerWith(40);
    const stop = foldingThroughout();
    const seen: number[] = [];
    await Promise.all(
      ids.map(async (id, i) => {
        expect((await reward(id)).rewardClaimed).toBe(true);
        if (i % 2 === 0) await revoke(id);
        seen.push((await countedReferrals(t.db, user.id))!);
      }),
    );
    await stop();
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0);
    expect(await countedReferrals(t.db, user.id)).toBe(20);
    await foldCredits(t.db, { wait: true });
    expect({ counter: await counter(user.id), credits: await credits(user.id) }).toEqual({ counter: 20, credits: 0 });
  });
});

describe("milestones beside the fold", () => {
  // A claim toward milestones counts the referrer's counter and credits after locking the counters
  // row: one milestone per count from 1 to 10 shows any count read twice or missed (a reward would
  // reach two milestones, or none).
  it("10 concurrent rewards of one referrer, folds running throughout: each milestone reached by its own reward", async () => {
    const p = await createOrgWithProject(t.db);
    await updateCampaign(t.db, p.org.id, p.project.id, { milestones: Array.from({ length: 10 }, (_, i) => ({ referrals: i + 1, name: `M${i + 1}` })) });
    for (let round = 0; round < 4; round++) {
      const { user, ids } = await referrerWith(10, p);
      const stop = foldingThroughout();
      const results = await Promise.all(ids.map((id) => reward(id, p)));
      await stop();
      expect(results.filter((r) => r.rewardClaimed)).toHaveLength(10);
      const reached = await t.db.milestoneReached.findMany({ where: { appUserId: user.id } });
      expect(reached.map((m) => m.referrals).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      expect(new Set(reached.map((m) => m.trackingId)).size).toBe(10);
    }
  });
});
