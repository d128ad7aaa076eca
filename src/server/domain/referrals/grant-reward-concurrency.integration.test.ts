import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAppUserByClientId } from "@/server/domain/app-users/get-app-user-by-client-id";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { grantReward } from "@/server/domain/referrals/grant-reward";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";

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
    const deliveries = await t.db.delivery.findMany({ where: { trackingId }, include: { webhook: true } });
    expect(deliveries.map((d) => d.webhook.environment).sort()).toEqual(["Both", "Production"]);
    expect((await getAppUserByClientId(t.db, f.org.id, f.project.id, "race-referrer")).successfulReferrals).toBe(1);
    expect(await t.db.rewardEvent.count({ where: { trackingId, outcome: "Claimed" } })).toBe(1);
    expect(await t.db.rewardEvent.count({ where: { trackingId, outcome: "Rejected" } })).toBe(49);
  });

  it("20 concurrent completions of different items for one pair: one Completed, the rest Failed duplicate_referee", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await track("pair-referrer", "pair-referee"));
    const results = await Promise.all(
      ids.map((referralTrackingId) => grantReward(t.db, f.org.id, f.project.id, { referralTrackingId })),
    );
    expect(results.filter((r) => r.rewardClaimed)).toHaveLength(1);
    const failed = results.filter((r) => !r.rewardClaimed);
    expect(failed).toHaveLength(19);
    expect(failed.every((r) => r.status === "Failed" && r.reason === "duplicate_referee")).toBe(true);

    const items = await t.db.referralTracking.findMany({ where: { id: { in: ids } } });
    expect(items.filter((i) => i.status === "Completed")).toHaveLength(1);
    expect(items.filter((i) => i.status === "Failed" && i.failureReason === "duplicate_referee")).toHaveLength(19);
    expect(items.filter((i) => i.rewardClaimed)).toHaveLength(1);
    const winner = items.find((i) => i.status === "Completed")!;
    expect(await t.db.rewardHistory.count({ where: { trackingId: { in: ids } } })).toBe(1);
    expect(await t.db.delivery.count({ where: { trackingId: { in: ids } } })).toBe(3);
    expect(await t.db.delivery.count({ where: { trackingId: winner.id } })).toBe(3);
    const referrer = await getAppUserByClientId(t.db, f.org.id, f.project.id, "pair-referrer");
    expect(referrer).toMatchObject({ successfulReferrals: 1, totalReferralsGiven: 20 });
  });
});
