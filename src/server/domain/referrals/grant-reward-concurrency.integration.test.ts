import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getAppUserByClientId } from "@/server/domain/app-users/get-app-user-by-client-id";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { claimReward, claimRewardIn } from "@/server/domain/referrals/claim-reward";
import { grantReward } from "@/server/domain/referrals/grant-reward";
import { isBound, loadRewardItem } from "@/server/domain/referrals/load-reward-item";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { createTestDb, withClient, type TestDb } from "@/test/db";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";
import { uniqueName } from "@/test/names";

/*
 * Races against the real database: the guarantees come from the conditional update and the unique
 * keys, so they are only proven with many connections at once.
 */
let t: TestDb;
let f: OrgWithProject;

beforeAll(async () => {
  t = await createTestDb();
  f = await createOrgWithProject(t.db);
  for (const environment of ["Sandbox", "Production", "Both"] as const) {
    await t.db.webhook.create({
      data: {
        projectId: f.project.id,
        campaignId: f.campaign.id,
        name: environment,
        url: `https://hooks.example.com/${environment}`,
        secretEncrypted: "ciphertext",
        secretHint: "abcd",
        environment,
      },
    });
  }
});
afterAll(() => t?.drop());

async function track(referrerId: string, refereeId: string) {
  const { user } = await getOrCreateAppUser(t.db, f.project.id, { clientProvidedId: referrerId });
  return (await trackReferral(t.db, f.org.id, f.project.id, { referralCode: user.referralCode, refereeId })).referralTrackingId;
}

/** The claim statement alone, without the eligibility decision before it: what the database allows. */
async function claimDirectly(trackingId: string) {
  const { project, item } = await loadRewardItem(t.db, f.org.id, f.project.id, trackingId);
  if (!isBound(item)) throw new Error("tracked with a referee");
  return claimReward(t.db, { project, item, eventName: "purchase", environment: null }, null);
}

describe("grantReward under concurrency", () => {
  it("50 concurrent calls at one item: exactly one claim, one history entry, one delivery per matching webhook", async () => {
    const trackingId = await track("race-referrer", "race-referee");
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        grantReward(t.db, f.org.id, f.project.id, { referralTrackingId: trackingId, environment: "Production" }),
      ),
    );
    const winners = results.filter((r) => r.rewardClaimed);
    expect(winners).toHaveLength(1);
    const losers = results.filter((r) => !r.rewardClaimed);
    expect(losers.every((r) => r.status === "Completed" && r.reason === "already_completed")).toBe(true);

    expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).toMatchObject({
      status: "Completed",
      rewardClaimed: true,
    });
    expect(await t.db.rewardHistory.count({ where: { trackingId } })).toBe(1);
    const deliveries = await t.db.delivery.findMany({ where: { trackingId }, select: { webhookId: true } });
    const hooks = await t.db.webhook.findMany({ where: { id: { in: deliveries.map((d) => d.webhookId) } } });
    expect(deliveries.map((d) => hooks.find((w) => w.id === d.webhookId)?.environment).sort()).toEqual(["Both", "Production"]);
    expect((await getAppUserByClientId(t.db, f.org.id, f.project.id, "race-referrer")).successfulReferrals).toBe(1);
    expect(await t.db.rewardEvent.count({ where: { trackingId, outcome: "Claimed" } })).toBe(1);
    expect(await t.db.rewardEvent.count({ where: { trackingId, outcome: "Rejected" } })).toBe(49);
  });

  it("20 concurrent rewards of one referee through 20 referrers: the first arrival completes, the rest fail not_first_arrival", async () => {
    const referee = uniqueName("farmed");
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await track(uniqueName(`farmer-${i}`), referee));
    const results = await Promise.all(ids.map((referralTrackingId) => grantReward(t.db, f.org.id, f.project.id, { referralTrackingId })));
    // The first arrival: the earliest item (ties within a millisecond go to the smaller id).
    const [first] = await t.db.referralTracking.findMany({ where: { id: { in: ids } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 1 });
    expect(results.filter((r) => r.rewardClaimed).map((r) => r.referralTrackingId)).toEqual([first!.id]);
    // A loser that read the item before the winner committed is not the first arrival; after, the referee was rewarded.
    const losers = results.filter((r) => !r.rewardClaimed);
    expect(losers).toHaveLength(19);
    for (const r of losers) expect([r.status, r.reason]).toEqual(["Failed", expect.stringMatching(/^(not_first_arrival|duplicate_referee)$/)]);
    const refereeId = (await getAppUserByClientId(t.db, f.org.id, f.project.id, referee)).uniqueId;
    expect(await t.db.rewardHistory.count({ where: { refereeId } })).toBe(1);
    expect(await t.db.delivery.count({ where: { trackingId: { in: ids } } })).toBe(3);
  });

  it("the database alone allows one completion per referee: 20 concurrent claims through different referrers", async () => {
    const referee = uniqueName("farmed");
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await track(uniqueName(`farmer-${i}`), referee));
    const results = await Promise.all(ids.map(claimDirectly));
    expect(results.filter((r) => r.rewardClaimed)).toHaveLength(1);
    const failed = results.filter((r) => !r.rewardClaimed);
    expect(failed).toHaveLength(19);
    expect(failed.every((r) => r.status === "Failed" && r.reason === "duplicate_referee")).toBe(true);

    const items = await t.db.referralTracking.findMany({ where: { id: { in: ids } } });
    expect(items.filter((i) => i.status === "Completed")).toHaveLength(1);
    expect(items.filter((i) => i.status === "Failed" && i.failureReason === "duplicate_referee")).toHaveLength(19);
    const winner = items.find((i) => i.status === "Completed")!;
    expect(await t.db.rewardHistory.count({ where: { trackingId: { in: ids } } })).toBe(1);
    expect(await t.db.delivery.count({ where: { trackingId: { in: ids } } })).toBe(3);
    expect(await t.db.delivery.count({ where: { trackingId: winner.id } })).toBe(3);
  });

  it("20 concurrent rewards of one pair's items: one Completed, the rest Failed, the referrer credited once", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await track("pair-referrer", "pair-referee"));
    const results = await Promise.all(ids.map((referralTrackingId) => grantReward(t.db, f.org.id, f.project.id, { referralTrackingId })));
    expect(results.filter((r) => r.rewardClaimed)).toHaveLength(1);
    expect(results.filter((r) => r.status === "Failed")).toHaveLength(19);
    expect(await t.db.rewardHistory.count({ where: { trackingId: { in: ids } } })).toBe(1);
    const referrer = await getAppUserByClientId(t.db, f.org.id, f.project.id, "pair-referrer");
    expect(referrer).toMatchObject({ successfulReferrals: 1, totalReferralsGiven: 20 });
  });

  it("mutual referral under a race: of A referring B and B referring A, rewarded at once, exactly one pays", async () => {
    for (const claim of [
      (id: string) => grantReward(t.db, f.org.id, f.project.id, { referralTrackingId: id }),
      claimDirectly, // without the decision's check: the pair index alone settles it
    ]) {
      for (let round = 0; round < 5; round++) {
        const [a, b] = [uniqueName("mutual-a"), uniqueName("mutual-b")];
        const ids = [await track(a, b), await track(b, a)];
        const results = await Promise.all(ids.map(claim));
        expect(results.filter((r) => r.rewardClaimed)).toHaveLength(1);
        expect(results.find((r) => !r.rewardClaimed)).toMatchObject({ status: "Failed", reason: "mutual_referral" });
        expect(await t.db.rewardHistory.count({ where: { trackingId: { in: ids } } })).toBe(1);
      }
    }
  });
});

describe("one referrer taking many rewards at once (a viral referrer)", () => {
  it("30 concurrent rewards of one referrer's referees: all claimed, successfulReferrals 30", async () => {
    const referrer = uniqueName("viral");
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await track(referrer, uniqueName(`viral-friend-${i}`)));
    const results = await Promise.all(ids.map((referralTrackingId) => grantReward(t.db, f.org.id, f.project.id, { referralTrackingId })));
    expect(results.filter((r) => r.rewardClaimed)).toHaveLength(30);
    const user = await getAppUserByClientId(t.db, f.org.id, f.project.id, referrer);
    expect(user).toMatchObject({ successfulReferrals: 30, totalReferralsGiven: 30 });
    expect(await t.db.rewardHistory.count({ where: { referrerId: user.uniqueId } })).toBe(30);
  });

  // A claim credits the referrer (referral-credits.ts) and leaves their counters row alone, so one
  // referrer's claims never wait on each other's commits.
  it.skipIf(!inject("templateDatabase"))("a claim never takes the referrer's counters row", async () => {
    const referrer = uniqueName("commit-referrer");
    const trackingId = await track(referrer, uniqueName("commit-referee"));
    const { project, item } = await loadRewardItem(t.db, f.org.id, f.project.id, trackingId);
    if (!isBound(item)) throw new Error("tracked with a referee");
    // Another session holds the row; the claim's transaction gives up after 2 s instead of waiting for it.
    await withClient(t.url!, async (c) => {
      await c.query("BEGIN");
      await c.query(`SELECT FROM "AppUserCounters" WHERE "appUserId" = $1 FOR UPDATE`, [item.referrerId]);
      await t.db.$transaction(async (tx) => {
        await tx.$executeRaw`SET LOCAL lock_timeout = '2s'`;
        expect((await claimRewardIn(tx, { project, item, eventName: "purchase", environment: null }, null)).rewardClaimed).toBe(true);
      });
      await c.query("ROLLBACK");
    });
    expect((await getAppUserByClientId(t.db, f.org.id, f.project.id, referrer)).successfulReferrals).toBe(1);
  });
});
