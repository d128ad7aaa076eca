import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { updateCampaign } from "@/server/domain/campaigns/update-campaign";
import type { OutboxWrite } from "@/server/domain/deliveries/outbox";
import { grantReward } from "@/server/domain/referrals/grant-reward";
import { reportRewardEvent } from "@/server/domain/referrals/report-reward-event";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";
import { uniqueName } from "@/test/names";
import { foldCredits } from "@/server/domain/referrals/referral-credits";

/*
 * Milestones are reached in the reward claim's own statement, once per referrer and milestone: the
 * counter's row lock orders concurrent claims and MilestoneReached's key refuses a second row. Only
 * many connections at once prove it, so each race runs several rounds.
 */
let t: TestDb;
let f: OrgWithProject;
/** Subscribed to milestone.reached; the other webhook is not. */
let subscribed: string;

beforeAll(async () => {
  t = await createTestDb();
  f = await createOrgWithProject(t.db);
  await updateCampaign(t.db, f.org.id, f.project.id, {
    milestones: [
      { referrals: 10, name: "Gold" },
      { referrals: 1, name: "First" },
      { referrals: 3, name: "Silver" },
      { referrals: 20, name: "Platinum" },
    ],
  });
  const hook = (name: string, events: ("reward.granted" | "milestone.reached")[]) =>
    t.db.webhook.create({
      data: { projectId: f.project.id, campaignId: f.campaign.id, name, url: `https://hooks.example.com/${name}`, secretEncrypted: "ciphertext", secretHint: "abcd", events },
    });
  subscribed = (await hook("milestones", ["reward.granted", "milestone.reached"])).id;
  await hook("rewards-only", ["reward.granted"]);
});
afterAll(() => t?.drop());

/** A referrer with `n` referees tracked through their code, the items' ids. */
async function referrerWith(n: number) {
  const { user } = await getOrCreateAppUser(t.db, f.project.id, { clientProvidedId: uniqueName("referrer") });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push((await trackReferral(t.db, f.org.id, f.project.id, { referralCode: user.referralCode, refereeId: uniqueName(`friend-${i}`) })).referralTrackingId);
  }
  return { user, ids };
}

const reachedOf = (appUserId: string) => t.db.milestoneReached.findMany({ where: { appUserId }, orderBy: { referrals: "asc" } });

describe("milestones", () => {
  it("20 concurrent rewards of one referrer: every milestone reached exactly once, by the reward that brought the count to it", async () => {
    for (let round = 0; round < 5; round++) {
      const { user, ids } = await referrerWith(20);
      const results = await Promise.all(ids.map((referralTrackingId) => grantReward(t.db, f.org.id, f.project.id, { referralTrackingId })));
      expect(results.filter((r) => r.rewardClaimed)).toHaveLength(20);
      const reached = await reachedOf(user.id);
      expect(reached.map((m) => [m.referrals, m.name])).toEqual([
        [1, "First"],
        [3, "Silver"],
        [10, "Gold"],
        [20, "Platinum"],
      ]);
      // Four different rewards reached them: each claim saw its own count.
      expect(new Set(reached.map((m) => m.trackingId)).size).toBe(4);
      expect(reached.every((m) => m.projectId === f.project.id && ids.includes(m.trackingId!))).toBe(true);
      // One milestone.reached delivery per milestone, to the subscribed webhook only, written with its reward.
      const events = await t.db.delivery.findMany({ where: { eventType: "milestone.reached", referrerId: user.id } });
      expect(events.map((d) => d.webhookId)).toEqual(Array(4).fill(subscribed));
      const bodies = events.map((d) => d.payload as { milestone: { referrals: number; name: string }; referralTrackingId: string; referrer: { uniqueId: string } });
      expect(bodies.map((b) => b.milestone.referrals).sort((a, b) => a - b)).toEqual([1, 3, 10, 20]);
      for (const m of reached) {
        const body = bodies.find((b) => b.milestone.referrals === m.referrals)!;
        expect(body).toMatchObject({ type: "milestone.reached", milestone: { name: m.name }, referralTrackingId: m.trackingId, referrer: { uniqueId: user.id } });
      }
      // The reward's own deliveries are untouched: one reward.granted per claim per webhook.
      expect(await t.db.delivery.count({ where: { eventType: "reward.granted", trackingId: { in: ids } } })).toBe(40);
    }
  });

  it("a reward that is not claimed reaches nothing; a later reward past a milestone added since reaches it then", async () => {
    const { user, ids } = await referrerWith(4);
    await grantReward(t.db, f.org.id, f.project.id, { referralTrackingId: ids[0]! });
    await grantReward(t.db, f.org.id, f.project.id, { referralTrackingId: ids[0]! }); // already completed: nothing new
    expect((await reachedOf(user.id)).map((m) => m.referrals)).toEqual([1]);
    await updateCampaign(t.db, f.org.id, f.project.id, { milestones: [{ referrals: 1, name: "First" }, { referrals: 2, name: "Two" }, { referrals: 3, name: "Silver" }] });
    await grantReward(t.db, f.org.id, f.project.id, { referralTrackingId: ids[1]! });
    await grantReward(t.db, f.org.id, f.project.id, { referralTrackingId: ids[2]! });
    expect((await reachedOf(user.id)).map((m) => [m.referrals, m.name])).toEqual([[1, "First"], [2, "Two"], [3, "Silver"]]);
  });

  it("a lowered counter (as a revoked reward leaves it) does not take a milestone back, nor reach it twice", async () => {
    const { user, ids } = await referrerWith(4);
    for (const id of ids.slice(0, 3)) await grantReward(t.db, f.org.id, f.project.id, { referralTrackingId: id });
    const before = await reachedOf(user.id);
    expect(before.map((m) => m.referrals)).toEqual([1, 2, 3]);
    await foldCredits(t.db, { wait: true });
    await t.db.appUserCounters.update({ where: { appUserId: user.id }, data: { successfulReferrals: 2 } });
    await grantReward(t.db, f.org.id, f.project.id, { referralTrackingId: ids[3]! });
    expect(await reachedOf(user.id)).toEqual(before);
    expect(await t.db.delivery.count({ where: { eventType: "milestone.reached", referrerId: user.id } })).toBe(3);
    // Each delivery names the reward that reached it.
    const sent = await t.db.delivery.findMany({ where: { eventType: "milestone.reached", referrerId: user.id } });
    expect(sent.map((d) => d.trackingId).sort()).toEqual(before.map((m) => m.trackingId).sort());
  });

  it("the reward path hands the milestone's deliveries to the outbox after the reward's, unleased", async () => {
    const { user, ids } = await referrerWith(1);
    const writes: OutboxWrite[] = [];
    const outbox = { lease: async () => null, dispatch: async (write: OutboxWrite) => void writes.push(write) };
    const outcome = await reportRewardEvent({ db: t.db, outbox }, { organizationId: f.org.id, projectId: f.project.id }, { referralTrackingId: ids[0]! });
    expect(outcome).not.toHaveProperty("alsoWritten");
    expect(writes.map((w) => [w.eventType, w.deliveries.length, w.lease])).toEqual([
      ["reward.granted", 2, null],
      ["milestone.reached", 1, null],
    ]);
    const [delivery] = await t.db.delivery.findMany({ where: { eventType: "milestone.reached", referrerId: user.id } });
    expect(writes[1]!.deliveries.map((d) => d.id)).toEqual([delivery!.id]);
  });

  it("milestones added below a referrer's count are reached by their next reward, which sends one event: the highest", async () => {
    const { user, ids } = await referrerWith(3);
    await updateCampaign(t.db, f.org.id, f.project.id, { milestones: [] });
    for (const id of ids.slice(0, 2)) await grantReward(t.db, f.org.id, f.project.id, { referralTrackingId: id });
    expect(await reachedOf(user.id)).toEqual([]);
    await updateCampaign(t.db, f.org.id, f.project.id, { milestones: [{ referrals: 1, name: "A" }, { referrals: 2, name: "B" }, { referrals: 3, name: "C" }] });
    await grantReward(t.db, f.org.id, f.project.id, { referralTrackingId: ids[2]! });
    expect((await reachedOf(user.id)).map((m) => [m.referrals, m.trackingId])).toEqual([[1, ids[2]], [2, ids[2]], [3, ids[2]]]);
    const sent = await t.db.delivery.findMany({ where: { eventType: "milestone.reached", referrerId: user.id } });
    expect(sent.map((d) => [d.trackingId, (d.payload as { milestone: { name: string } }).milestone.name])).toEqual([[ids[2], "C"]]);
  });
});
