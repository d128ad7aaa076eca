import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { updateCampaign } from "@/server/domain/campaigns/update-campaign";
import { decideReview } from "@/server/domain/reviews/decide-review";
import { grantReward } from "@/server/domain/referrals/grant-reward";
import { revokeReferral } from "@/server/domain/referrals/revoke-referral";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { recordingScheduler } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { countedReferrals, createOrgWithProject, type OrgWithProject } from "@/test/fixtures";
import { uniqueName } from "@/test/names";

/*
 * A revocation racing a grant, against the real database, many times: whichever goes first, the end
 * is one consistent state. The item is Revoked; no reward history row and no count remain; and the
 * reward's webhook was sent only if its withdrawal was sent too.
 */
let t: TestDb;
let held: OrgWithProject;
let plain: OrgWithProject;
const outbox = recordingScheduler();
const ROUNDS = 25;

beforeAll(async () => {
  t = await createTestDb();
  held = await createOrgWithProject(t.db);
  plain = await createOrgWithProject(t.db);
  await updateCampaign(t.db, held.org.id, held.project.id, { rewardRules: { holdDays: 3 } });
  for (const f of [held, plain]) {
    await t.db.webhook.create({
      data: {
        projectId: f.project.id,
        campaignId: f.campaign.id,
        name: "all",
        url: "https://hooks.example.com/all",
        secretEncrypted: "ciphertext",
        secretHint: "abcd",
        events: ["reward.granted", "reward.revoked"],
      },
    });
  }
});
afterAll(() => t?.drop());

async function tracked(f: OrgWithProject) {
  const { user } = await getOrCreateAppUser(t.db, f.project.id, { clientProvidedId: uniqueName("referrer") });
  const trackingId = (await trackReferral(t.db, f.org.id, f.project.id, { referralCode: user.referralCode, refereeId: uniqueName("referee") })).referralTrackingId;
  return { trackingId, referrerId: user.id };
}

/** The state every race must end in, whoever won it. */
async function expectConsistent(trackingId: string, referrerId: string) {
  const item = await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } });
  expect(item).toMatchObject({ status: "Revoked", rewardClaimed: false });
  expect(await t.db.rewardHistory.count({ where: { trackingId } })).toBe(0);
  expect(await t.db.rewardReview.count({ where: { trackingId } })).toBe(0);
  expect(await countedReferrals(t.db, referrerId)).toBe(0);
  const granted = await t.db.delivery.count({ where: { trackingId, eventType: "reward.granted" } });
  const revoked = await t.db.delivery.count({ where: { trackingId, eventType: "reward.revoked" } });
  expect(granted).toBeLessThanOrEqual(1);
  expect(revoked).toBe(granted);
}

describe("revokeReferral racing a grant", () => {
  it(`a review's approval and a revocation at once, ${ROUNDS} times: one consistent end each time`, async () => {
    const seen = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const { trackingId, referrerId } = await tracked(held);
      const report = await grantReward(t.db, held.org.id, held.project.id, { referralTrackingId: trackingId, eventName: "purchase" });
      expect(report.reason).toBe("held_for_review");
      const [approval, revocation] = await Promise.allSettled([
        decideReview({ db: t.db, outbox }, { organizationId: held.org.id, projectId: held.project.id }, trackingId, "approve", null),
        revokeReferral({ db: t.db, outbox }, held.project.id, { trackingId, reason: "race", source: "api" }),
      ]);
      expect(revocation.status).toBe("fulfilled");
      const how = revocation.status === "fulfilled" ? revocation.value.revoked : "";
      // The revocation went first (the approval finds no review: 409), or after the grant (withdrawn).
      if (how === "held") expect(approval.status).toBe("rejected");
      else expect(approval).toMatchObject({ status: "fulfilled", value: { rewardClaimed: true } });
      seen.add(how);
      await expectConsistent(trackingId, referrerId);
    }
    expect([...seen].every((how) => how === "held" || how === "granted")).toBe(true);
  });

  it(`a reward call and a revocation at once, ${ROUNDS} times: revoked after the grant, or refused before it`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { trackingId, referrerId } = await tracked(plain);
      const [grant, revocation] = await Promise.allSettled([
        grantReward(t.db, plain.org.id, plain.project.id, { referralTrackingId: trackingId, eventName: "purchase" }),
        revokeReferral({ db: t.db, outbox }, plain.project.id, { trackingId, reason: "race", source: "api" }),
      ]);
      expect(grant.status).toBe("fulfilled");
      if (revocation.status === "rejected") {
        // Nothing was granted yet: a 409, and the grant stands alone.
        expect(String(revocation.reason)).toContain("Pending");
        expect((await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).status).toBe("Completed");
        await revokeReferral({ db: t.db, outbox }, plain.project.id, { trackingId, reason: "after", source: "api" });
      }
      await expectConsistent(trackingId, referrerId);
    }
  });

  it(`two revocations at once, ${ROUNDS} times: one withdraws, the other says it was already revoked`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { trackingId, referrerId } = await tracked(plain);
      await grantReward(t.db, plain.org.id, plain.project.id, { referralTrackingId: trackingId, eventName: "purchase" });
      const both = await Promise.all([1, 2].map(() => revokeReferral({ db: t.db, outbox }, plain.project.id, { trackingId, reason: "twice", source: "stripe" })));
      expect(both.map((r) => r.revoked).sort()).toEqual(["already_revoked", "granted"]);
      await expectConsistent(trackingId, referrerId);
    }
  });
});
