import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_USER_EXPORT_MAX_ENTRIES } from "@/server/domain/app-users/export-app-user";
import { createTestDb, type TestDb } from "@/test/db";
import { recordingScheduler } from "@/test/config";
import { uniqueName } from "@/test/names";
import {
  createAppUserOverRest,
  createOrgWithApiKey,
  createProjectOverRest,
  expectProblem,
  restClient,
  type RestClient,
  restClientForNewOrg,
  trackOverRest,
} from "@/test/rest";

/*
 * Erasing and exporting an app user over REST, end to end: the real handler, this file's own database.
 */

let t: TestDb;
let call: RestClient;
let other: RestClient;
let readOnly: RestClient;
let projectId: string;
let campaignId: string;
let webhookId: string;
let orgId: string;
const scheduler = recordingScheduler();

beforeAll(async () => {
  t = await createTestDb();
  const owner = await createOrgWithApiKey(t.db);
  orgId = owner.org.id;
  call = restClient(t.db, owner.apiKey, { scheduler });
  readOnly = restClient(t.db, (await createKey("readOnly")).key);
  other = await restClientForNewOrg(t.db);
  projectId = await createProjectOverRest(call, "Data rights");
  campaignId = (await call("GET", `/projects/${projectId}/campaign`)).json.campaignId;
  webhookId = (
    await t.db.webhook.create({ data: { projectId, campaignId, name: "hook", url: "https://hooks.example.com/r", secretEncrypted: "x", secretHint: "x" } })
  ).id;

  async function createKey(role: "readOnly") {
    const { createApiKey } = await import("@/server/domain/api-keys/create-api-key");
    return createApiKey(t.db, orgId, { name: "ro", role }, null);
  }
});
afterAll(() => t?.drop());

const users = `/users`;
const path = (p: string) => `/projects/${projectId}${p}`;
const reward = (trackingId: string) => call("POST", path("/referrals/reward"), { body: { ReferralTrackingId: trackingId, EventName: "purchase" } });

/** Ada refers Bob (rewarded, with a delivery) and Cy (still Pending); Ada was referred by Dee (rewarded). */
async function scene() {
  const [ada, bob, cy, dee] = await Promise.all(["ada", "bob", "cy", "dee"].map((n) => createAppUserOverRest(call, projectId, uniqueName(n), { email: `${n}@example.org` })));
  const bobItem = (await trackOverRest(call, projectId, ada!, bob!.clientProvidedId)).trackingId;
  const cyItem = (await trackOverRest(call, projectId, ada!, cy!.clientProvidedId)).trackingId;
  const adaItem = (await trackOverRest(call, projectId, dee!, ada!.clientProvidedId)).trackingId;
  expect((await reward(bobItem)).json.rewardClaimed).toBe(true);
  expect((await reward(adaItem)).json.rewardClaimed).toBe(true);
  return { ada: ada!, bob: bob!, cy: cy!, dee: dee!, bobItem, cyItem, adaItem };
}

describe("DELETE /users/{uniqueId}", () => {
  it("erases the user; their referrals keep their status and the other party's counters, with them shown as erased", async () => {
    const s = await scene();
    await t.db.linkClick.create({ data: { projectId, referralCode: s.dee.referralCode, ipAddress: "203.0.113.5", matchedAppUserId: s.ada.uniqueId, matchedAt: new Date() } });
    const inbound = await t.db.inboundEvent.create({
      data: { projectId, provider: "stripe", providerEventId: uniqueName("evt"), type: "invoice.paid", environment: "Production", refereeId: s.ada.clientProvidedId, outcome: "ignored" },
    });
    const bobBefore = (await call("GET", path(`${users}/${s.bob.uniqueId}`))).json;
    const enqueued = scheduler.enqueued.length;
    // Each reward's delivery carries its item's parties.
    const parties = async (trackingId: string) =>
      t.db.delivery.findFirstOrThrow({ where: { trackingId }, select: { referrerId: true, refereeId: true } });
    expect(await parties(s.bobItem)).toEqual({ referrerId: s.ada.uniqueId, refereeId: s.bob.uniqueId });
    expect(await parties(s.adaItem)).toEqual({ referrerId: s.dee.uniqueId, refereeId: s.ada.uniqueId });
    // Her timeline, and the rewards that name her (no foreign keys: the erasure itself removes them).
    expect(await t.db.activity.count({ where: { appUserId: s.ada.uniqueId } })).toBeGreaterThan(0);
    expect(await t.db.rewardHistory.count({ where: { OR: [{ referrerId: s.ada.uniqueId }, { refereeId: s.ada.uniqueId }] } })).toBe(2);

    const res = await call("DELETE", path(`${users}/${s.ada.uniqueId}`));
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe("");

    expectProblem(await call("GET", path(`${users}/${s.ada.uniqueId}`)), 404);
    expectProblem(await call("GET", path(`${users}/by-user-id/${encodeURIComponent(s.ada.clientProvidedId)}`)), 404);
    expect(await t.db.appUser.count({ where: { id: s.ada.uniqueId } })).toBe(0);
    expect(await t.db.activity.count({ where: { appUserId: s.ada.uniqueId } })).toBe(0);
    expect(await t.db.linkClick.count({ where: { matchedAppUserId: s.ada.uniqueId } })).toBe(0);
    // Their code no longer tracks anyone.
    expectProblem(await call("POST", path("/referrals/track"), { body: { ReferralCode: s.ada.referralCode, RefereeId: uniqueName("late") } }), 404);

    // Bob's completed referral: still Completed, Ada erased; Bob's counters as they were.
    const given = await call("GET", path(`${users}/${s.bob.uniqueId}/referrals?direction=received`));
    expect(given.json.items).toEqual([expect.objectContaining({ referralTrackingId: s.bobItem, status: "Completed", referrerId: null, referrerUniqueId: null, referrerErased: true, refereeErased: false })]);
    const bobAfter = (await call("GET", path(`${users}/${s.bob.uniqueId}`))).json;
    expect({ ...bobAfter, referredBy: bobBefore.referredBy }).toEqual(bobBefore);
    expect(bobAfter.referredBy).toBeNull();
    // Cy's Pending referral had Ada as referrer: nobody would be credited, so it failed.
    expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: s.cyItem } })).toMatchObject({ status: "Failed", failureReason: "user_erased", referrerId: null, referrerErased: true });
    // Ada as referee of Dee: Completed, Dee keeps her successful referral.
    expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: s.adaItem } })).toMatchObject({ status: "Completed", refereeId: null, refereeErased: true });
    expect((await call("GET", path(`${users}/${s.dee.uniqueId}`))).json).toMatchObject({ successfulReferrals: 1, totalReferralsGiven: 1 });
    expect(await t.db.rewardHistory.findUniqueOrThrow({ where: { trackingId: s.adaItem } })).toMatchObject({ refereeId: null, referrerId: s.dee.uniqueId });
    expect(await t.db.rewardHistory.findUniqueOrThrow({ where: { trackingId: s.bobItem } })).toMatchObject({ referrerId: null, refereeId: s.bob.uniqueId });

    // Stored delivery bodies no longer carry her client id; nothing was sent about the erasure.
    for (const trackingId of [s.bobItem, s.adaItem]) {
      const [delivery] = await t.db.delivery.findMany({ where: { trackingId } });
      expect(JSON.stringify(delivery!.payload)).not.toContain(s.ada.clientProvidedId);
      expect(JSON.stringify(delivery!.payload)).toContain("[erased]");
    }
    expect((await t.db.delivery.findFirstOrThrow({ where: { trackingId: s.bobItem } })).payload).toMatchObject({ referrerId: "[erased]", refereeId: s.bob.clientProvidedId });
    // And their key of her is gone; the other party's stays.
    expect(await parties(s.bobItem)).toEqual({ referrerId: null, refereeId: s.bob.uniqueId });
    expect(await parties(s.adaItem)).toEqual({ referrerId: s.dee.uniqueId, refereeId: null });
    expect(scheduler.enqueued.length).toBe(enqueued);
    // Nor does the inbound provider event that named her.
    expect((await t.db.inboundEvent.findUniqueOrThrow({ where: { id: inbound.id } })).refereeId).toBe("[erased]");
    // Other users' timelines no longer name her.
    const mentions = await t.db.activity.findMany({ where: { projectId, description: { contains: s.ada.clientProvidedId } } });
    expect(mentions).toEqual([]);

    // Audited by uniqueId only.
    const [entry] = await t.db.auditEntry.findMany({ where: { organizationId: orgId, action: "app_user.erase" } });
    expect(entry).toMatchObject({ targetType: "appUser", targetId: s.ada.uniqueId, targetLabel: null });
    expect(JSON.stringify(entry)).not.toContain(s.ada.clientProvidedId);
  });

  it("fails a Pending referral of an erased referee (user_erased) and lets the client id be used again", async () => {
    const referrer = await createAppUserOverRest(call, projectId, uniqueName("referrer"));
    const clientId = uniqueName("comeback");
    const { trackingId } = await trackOverRest(call, projectId, referrer, clientId);
    const erased = (await call("GET", path(`${users}/by-user-id/${clientId}`))).json;
    expect((await call("DELETE", path(`${users}/${erased.uniqueId}`))).status).toBe(200);
    expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).toMatchObject({ status: "Failed", failureReason: "user_erased", refereeErased: true });
    expect((await reward(trackingId)).json).toMatchObject({ rewardClaimed: false, reason: "already_failed" });
    expect((await call("GET", path(`${users}/${referrer.uniqueId}`))).json.totalReferralsGiven).toBe(1);

    const again = await createAppUserOverRest(call, projectId, clientId, { fresh: "yes" });
    expect(again.uniqueId).not.toBe(erased.uniqueId);
    expect(again).toMatchObject({ attributes: { fresh: "yes" }, totalReferralsReceived: 0, referredBy: null });
  });

  it("answers 404 for an unknown user, another organisation's, and a second erasure; 403 for a read-only key", async () => {
    const user = await createAppUserOverRest(call, projectId, uniqueName("kept"));
    expectProblem(await other("DELETE", path(`${users}/${user.uniqueId}`)), 404);
    expectProblem(await readOnly("DELETE", path(`${users}/${user.uniqueId}`)), 403);
    expect((await call("GET", path(`${users}/${user.uniqueId}`))).status).toBe(200);
    expect((await call("DELETE", path(`${users}/${user.uniqueId}`))).status).toBe(200);
    expectProblem(await call("DELETE", path(`${users}/${user.uniqueId}`)), 404);
    expectProblem(await call("DELETE", path(`${users}/00000000-0000-0000-0000-000000000000`)), 404);
  });
});

describe("GET /users/{uniqueId}/export", () => {
  it("answers one document with everything held about the user", async () => {
    const s = await scene();
    await t.db.linkClick.create({ data: { projectId, referralCode: s.dee.referralCode, ipAddress: "198.51.100.3", os: "iOS", matchedAppUserId: s.ada.uniqueId, matchedAt: new Date() } });
    const res = await call("GET", path(`${users}/${s.ada.uniqueId}/export`));
    expect(res.status, res.text).toBe(200);
    const doc = res.json;
    expect(doc.user).toEqual((await call("GET", path(`${users}/${s.ada.uniqueId}`))).json);
    expect(doc.user.attributes).toEqual({ email: "ada@example.org" });
    expect(doc.referralsGiven.map((r: { referralTrackingId: string }) => r.referralTrackingId).sort()).toEqual([s.bobItem, s.cyItem].sort());
    expect(doc.referralsReceived.map((r: { referralTrackingId: string }) => r.referralTrackingId)).toEqual([s.adaItem]);
    expect(doc.rewards.map((r: { trackingId: string; role: string }) => [r.trackingId, r.role]).sort()).toEqual(
      [
        [s.bobItem, "referrer"],
        [s.adaItem, "referee"],
      ].sort(),
    );
    expect(doc.rewardEvents).toHaveLength(2);
    expect(doc.deliveries).toHaveLength(2);
    for (const d of doc.deliveries) expect(d.webhookId).toBe(webhookId);
    expect(doc.deliveries.map((d: { body: { referrerId: string; refereeId: string } }) => [d.body.referrerId, d.body.refereeId]).sort()).toEqual(
      [
        [s.ada.clientProvidedId, s.bob.clientProvidedId],
        [s.dee.clientProvidedId, s.ada.clientProvidedId],
      ].sort(),
    );
    expect(doc.landingClicks).toEqual([expect.objectContaining({ ipAddress: "198.51.100.3", os: "iOS" })]);
    expect(doc.activity.length).toBeGreaterThan(0);
    expect(doc.inboundEvents).toEqual([]);
    expect(doc.truncated).toEqual([]);
    expect(await t.db.auditEntry.count({ where: { organizationId: orgId, action: "app_user.export", targetId: s.ada.uniqueId } })).toBe(1);
    // A read-only key may export (it reads); another organisation may not.
    expect((await readOnly("GET", path(`${users}/${s.ada.uniqueId}/export`))).status).toBe(200);
    expectProblem(await other("GET", path(`${users}/${s.ada.uniqueId}/export`)), 404);
  });
});

describe("GET /users/{uniqueId}/export, for a user with more than the bound", () => {
  it(`gives the oldest ${APP_USER_EXPORT_MAX_ENTRIES.toLocaleString("en-GB")} entries of a longer list and names it in truncated`, async () => {
    const referrer = await createAppUserOverRest(call, projectId, uniqueName("big-referrer"));
    const count = APP_USER_EXPORT_MAX_ENTRIES + 5;
    await t.db.$executeRaw`
      INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "referralCode", "status", "rewardClaimed", "createdAt", "updatedAt")
      SELECT md5(${referrer.uniqueId} || n)::uuid::text, ${projectId}, ${campaignId}, ${referrer.uniqueId}, ${referrer.referralCode}, 'Pending', false,
        TIMESTAMP '2026-01-01 00:00:00' + n * INTERVAL '1 minute', now()
      FROM generate_series(1, ${count}::int) AS n`;
    const res = await call("GET", path(`${users}/${referrer.uniqueId}/export`));
    expect(res.status, res.text).toBe(200);
    expect(res.json.truncated).toEqual(["referralsGiven"]);
    const oldest = await t.db.referralTracking.findMany({ where: { referrerId: referrer.uniqueId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: APP_USER_EXPORT_MAX_ENTRIES });
    expect(res.json.referralsGiven.map((r: { referralTrackingId: string }) => r.referralTrackingId)).toEqual(oldest.map((r) => r.id));
  });
});
