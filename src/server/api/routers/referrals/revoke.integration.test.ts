import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referralTrackedDeliverySchema, rewardHeldDeliverySchema, rewardRevokedDeliverySchema } from "@/lib/schemas/webhook-events";
import { createApiKey } from "@/server/domain/api-keys/create-api-key";
import { releaseEndedHolds } from "@/server/domain/reviews/release-ended-holds";
import { recordingScheduler } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { countedReferrals } from "@/test/fixtures";
import { uniqueName } from "@/test/names";
import { createAppUserOverRest, createOrgWithApiKey, createProjectOverRest, expectProblem, restClient, restClientForNewOrg, trackOverRest, type RestClient } from "@/test/rest";

/*
 * POST .../referrals/{trackingId}/revoke: a granted reward withdrawn (reward.revoked to subscribed
 * webhooks only, counted out everywhere), a held one cancelled, a second revocation a no-op that says
 * so, and the 4xx of the call.
 */

let t: TestDb;
let call: RestClient;
let readOnly: RestClient;
let other: RestClient;
let projectId: string;
let held: string;
let subscribed: string;
let unsubscribed: string;
const scheduler = recordingScheduler();

beforeAll(async () => {
  t = await createTestDb();
  const owner = await createOrgWithApiKey(t.db);
  call = restClient(t.db, owner.apiKey, { scheduler });
  readOnly = restClient(t.db, (await createApiKey(t.db, owner.org.id, { name: "ro", role: "readOnly" }, null)).key);
  other = await restClientForNewOrg(t.db);
  projectId = await createProjectOverRest(call, "Revocations");
  const { campaignId } = (await call("GET", `/projects/${projectId}/campaign`)).json;
  held = await createProjectOverRest(call, "Held");
  expect((await call("PUT", `/projects/${held}/campaign`, { body: { rewardRules: { holdDays: 5 } } })).status).toBe(200);
  const hook = async (name: string, events?: string[]) => {
    const res = await call("POST", `/projects/${projectId}/webhooks/${campaignId}`, { body: { name, url: `http://127.0.0.1:9/${name}`, ...(events ? { events } : {}) } });
    expect(res.status, res.text).toBe(201);
    return res.json;
  };
  const created = await hook("revocations", ["reward.revoked", "reward.granted"]);
  expect(created.events).toEqual(["reward.granted", "reward.revoked"]);
  subscribed = created.id;
  const plain = await hook("plain");
  expect(plain.events).toEqual(["reward.granted"]);
  unsubscribed = plain.id;
});
afterAll(() => t?.drop());

const revoke = (trackingId: string, body: unknown = { reason: "Refunded in full" }, pid = projectId, headers: Record<string, string> = {}, client = call) =>
  client("POST", `/projects/${pid}/referrals/${trackingId}/revoke`, { body, headers });

/** A tracked referral; rewarded (over REST) unless `reward` is false. */
async function referral(pid = projectId, reward = true) {
  const referrer = await createAppUserOverRest(call, pid, uniqueName("referrer"));
  const refereeId = uniqueName("referee");
  const { trackingId } = await trackOverRest(call, pid, referrer, refereeId);
  const res = reward ? await call("POST", `/projects/${pid}/referrals/reward`, { body: { ReferralTrackingId: trackingId, EventName: "purchase", Environment: "Production" } }) : null;
  return { trackingId, referrer, refereeId, res };
}

describe("POST .../referrals/{trackingId}/revoke", () => {
  it("withdraws a granted reward: Revoked, counted out, reward.revoked to the subscribed webhook only; again is a no-op that says so", async () => {
    const { trackingId, referrer, res } = await referral();
    expect(res!.json.rewardClaimed).toBe(true);
    expect(await countedReferrals(t.db, referrer.uniqueId)).toBe(1);

    const first = await revoke(trackingId);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ referralTrackingId: trackingId, status: "Revoked", revoked: "granted", revokedAt: expect.any(String), reason: "Refunded in full", revokedBy: "api" });

    expect(await t.db.rewardHistory.count({ where: { trackingId } })).toBe(0);
    expect(await countedReferrals(t.db, referrer.uniqueId)).toBe(0);
    const revokedDeliveries = await t.db.delivery.findMany({ where: { trackingId, eventType: "reward.revoked" } });
    expect(revokedDeliveries.map((d) => d.webhookId)).toEqual([subscribed]);
    expect(scheduler.enqueued).toContain(revokedDeliveries[0]!.id);
    expect(revokedDeliveries[0]!.payload).toMatchObject({
      type: "reward.revoked",
      trackingId,
      referrerId: referrer.clientProvidedId,
      reason: "Refunded in full",
      rewardStatus: "Revoked",
      revokedBy: "api",
      event: "purchase",
      projectId,
    });
    expect(rewardRevokedDeliverySchema.safeParse(revokedDeliveries[0]!.payload).error).toBeUndefined();
    // The grant went to both webhooks (both subscribe to reward.granted).
    expect(await t.db.delivery.count({ where: { trackingId, eventType: "reward.granted" } })).toBe(2);

    const detail = await call("GET", `/projects/${projectId}/referrals/${trackingId}`);
    expect(detail.json.referral).toMatchObject({ status: "Revoked", rewardClaimed: false });
    expect(detail.json.revocation).toEqual({ revokedAt: first.json.revokedAt, reason: "Refunded in full", revokedBy: "api" });
    const listed = await call("GET", `/projects/${projectId}/referrals?status=revoked&pageSize=100`);
    expect(listed.json.items.map((i: { referralTrackingId: string }) => i.referralTrackingId)).toContain(trackingId);
    const leaderboard = await call("GET", `/projects/${projectId}/leaderboard`);
    expect(JSON.stringify(leaderboard.json)).not.toContain(referrer.clientProvidedId);

    const again = await revoke(trackingId, { reason: "Something else" });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ ...first.json, revoked: "already_revoked" });
    expect(await t.db.delivery.count({ where: { trackingId, eventType: "reward.revoked" } })).toBe(1);
    expect(await countedReferrals(t.db, referrer.uniqueId)).toBe(0);

    // A reward event for it afterwards grants nothing.
    const reward = await call("POST", `/projects/${projectId}/referrals/reward`, { body: { ReferralTrackingId: trackingId, EventName: "purchase" } });
    expect(reward.json).toEqual({ rewardClaimed: false, status: "Revoked", reason: "already_revoked", referralTrackingId: trackingId });
  });

  it("cancels a held reward: it leaves the review queue, never grants, and nothing is sent", async () => {
    const { trackingId, res } = await referral(held);
    expect(res!.json).toMatchObject({ rewardClaimed: false, status: "Pending", reason: "held_for_review" });
    const revoked = await revoke(trackingId, { reason: "Chargeback" }, held);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.json).toMatchObject({ status: "Revoked", revoked: "held" });
    expect(await t.db.rewardReview.count({ where: { trackingId } })).toBe(0);
    // The hold's end finds nothing to release.
    await releaseEndedHolds({ db: t.db, outbox: scheduler }, new Date(Date.now() + 10 * 86_400_000));
    expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).toMatchObject({ status: "Revoked", rewardClaimed: false });
    expect(await t.db.rewardHistory.count({ where: { trackingId } })).toBe(0);
    expect(await t.db.delivery.count({ where: { trackingId } })).toBe(0);
  });

  it("sends referral.tracked and reward.held to the webhooks subscribed to them, with their type", async () => {
    const { campaignId } = (await call("GET", `/projects/${held}/campaign`)).json;
    const created = await call("POST", `/projects/${held}/webhooks/${campaignId}`, {
      body: { name: "lifecycle", url: "http://127.0.0.1:9/lifecycle", events: ["referral.tracked", "reward.held"] },
    });
    expect(created.status, created.text).toBe(201);
    const { trackingId, referrer, refereeId } = await referral(held);
    const deliveries = await t.db.delivery.findMany({ where: { trackingId }, orderBy: { createdAt: "asc" } });
    expect(deliveries.map((d) => [d.webhookId, d.eventType])).toEqual([
      [created.json.id, "referral.tracked"],
      [created.json.id, "reward.held"],
    ]);
    expect(deliveries[0]!.payload).toMatchObject({ type: "referral.tracked", trackingId, referrerId: referrer.clientProvidedId, refereeId, campaignId, projectId: held });
    expect(deliveries[1]!.payload).toMatchObject({ type: "reward.held", trackingId, event: "purchase", reasons: ["hold"], holdUntil: expect.any(String), campaignId });
    expect(deliveries[0]!.referrerId).toBe(referrer.uniqueId);
    // Exactly the bodies the document declares.
    expect(referralTrackedDeliverySchema.safeParse(deliveries[0]!.payload).error).toBeUndefined();
    expect(rewardHeldDeliverySchema.safeParse(deliveries[1]!.payload).error).toBeUndefined();
    expect(scheduler.enqueued).toContain(deliveries[1]!.id);
  });

  it("runs once per Idempotency-Key: a retry gets the first answer", async () => {
    const { trackingId } = await referral();
    const headers = { "Idempotency-Key": uniqueName("key") };
    const first = await revoke(trackingId, undefined, projectId, headers);
    const retry = await revoke(trackingId, undefined, projectId, headers);
    expect(first.json.revoked).toBe("granted");
    expect(retry.json).toEqual(first.json);
    expectProblem(await revoke(trackingId, { reason: "another reason" }, projectId, headers), 422);
  });

  it("answers 409 naming the state for a referral with nothing to take back", async () => {
    const pending = await referral(projectId, false);
    const res = await revoke(pending.trackingId);
    expectProblem(res, 409, [["status", "pending"]]);
    expect(res.json.detail).toContain("Pending");
    // A Failed one: the referee rewarded before through another item.
    const { referrer, refereeId } = await referral();
    const { trackingId: second } = await trackOverRest(call, projectId, await createAppUserOverRest(call, projectId, uniqueName("r2")), refereeId);
    await call("POST", `/projects/${projectId}/referrals/reward`, { body: { ReferralTrackingId: second, EventName: "purchase" } });
    expect(referrer).toBeDefined();
    expectProblem(await revoke(second), 409, [["status", "failed"]]);
  });

  it("answers 404 for an unknown or another organisation's referral, 400 naming reason, 403 to a read-only key", async () => {
    const { trackingId } = await referral();
    expectProblem(await revoke("00000000-0000-4000-8000-000000000000"), 404);
    expectProblem(await revoke(trackingId, undefined, projectId, {}, other), 404);
    expectProblem(await revoke(trackingId, {}), 400, ["reason"]);
    expectProblem(await revoke(trackingId, { reason: "   " }), 400, ["reason"]);
    expectProblem(await revoke(trackingId, { reason: "x".repeat(501) }), 400, ["reason"]);
    expectProblem(await revoke(trackingId, undefined, projectId, {}, readOnly), 403);
    expect((await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).status).toBe("Completed");
  });

  it("creates and updates a webhook's events, refusing unknown and repeated types", async () => {
    const base = `/projects/${projectId}/webhooks`;
    const { campaignId } = (await call("GET", `/projects/${projectId}/campaign`)).json;
    expectProblem(await call("POST", `${base}/${campaignId}`, { body: { name: "x", url: "http://127.0.0.1:9/x", events: ["reward.paid"] } }), 400, ["events.0"]);
    expectProblem(await call("POST", `${base}/${campaignId}`, { body: { name: "x", url: "http://127.0.0.1:9/x", events: [] } }), 400, ["events"]);
    expectProblem(await call("PUT", `${base}/${unsubscribed}`, { body: { events: ["reward.held", "reward.held"] } }), 400, ["events"]);
    const updated = await call("PUT", `${base}/${unsubscribed}`, { body: { events: ["referral.tracked", "reward.held", "milestone.reached"] } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json.events).toEqual(["reward.held", "referral.tracked", "milestone.reached"]);
    expect((await call("GET", `${base}/${unsubscribed}`)).json.events).toEqual(["reward.held", "referral.tracked", "milestone.reached"]);
    await call("PUT", `${base}/${unsubscribed}`, { body: { events: ["reward.granted"] } });
  });
});
