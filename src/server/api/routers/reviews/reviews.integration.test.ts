import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/domain/api-keys/create-api-key";
import { createTestDb, type TestDb } from "@/test/db";
import { recordingScheduler } from "@/test/config";
import { uniqueName } from "@/test/names";
import { createAppUserOverRest, createOrgWithApiKey, createProjectOverRest, expectProblem, restClient, type RestClient, restClientForNewOrg, trackOverRest } from "@/test/rest";

/*
 * The campaign's reward rules and the review queue over REST: the rules' 400s, the queue's envelope,
 * the decisions' answers and who may make them. The rules' behaviour is tested in the domain.
 */

let t: TestDb;
let call: RestClient;
let member: RestClient;
let readOnly: RestClient;
let other: RestClient;
let projectId: string;
const scheduler = recordingScheduler();

beforeAll(async () => {
  t = await createTestDb();
  const owner = await createOrgWithApiKey(t.db);
  call = restClient(t.db, owner.apiKey, { scheduler });
  member = restClient(t.db, (await createApiKey(t.db, owner.org.id, { name: "member", role: "member" }, null)).key, { scheduler });
  readOnly = restClient(t.db, (await createApiKey(t.db, owner.org.id, { name: "ro", role: "readOnly" }, null)).key);
  other = await restClientForNewOrg(t.db);
  projectId = await createProjectOverRest(call, "Reviews");
});
afterAll(() => t?.drop());

const path = (p: string, pid = projectId) => `/projects/${pid}${p}`;

async function heldItem() {
  const referrer = await createAppUserOverRest(call, projectId, uniqueName("referrer"));
  const referee = await createAppUserOverRest(call, projectId, uniqueName("referee"), { email: "x@mailinator.com" });
  const { trackingId } = await trackOverRest(call, projectId, referrer, referee.clientProvidedId);
  const res = await call("POST", path("/referrals/reward"), { body: { ReferralTrackingId: trackingId, EventName: "signup", Environment: "Production" } });
  expect(res.json).toEqual({ rewardClaimed: false, status: "Pending", reason: "held_for_review", referralTrackingId: trackingId });
  return { trackingId, referrer, referee };
}

describe("PUT /campaign rewardRules", () => {
  it("is all off by default and merges what is sent", async () => {
    expect((await call("GET", path("/campaign"))).json.rewardRules).toEqual({ maxRewardsPerReferrer: {}, disposableEmail: "off", sameDevice: "off", holdDays: 0 });
    const res = await call("PUT", path("/campaign"), { body: { RewardRules: { maxRewardsPerReferrer: { perDay: 5, lifetime: 50 }, disposableEmail: "Review" } } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.rewardRules).toEqual({ maxRewardsPerReferrer: { perDay: 5, lifetime: 50 }, disposableEmail: "review", sameDevice: "off", holdDays: 0 });
    const again = await call("PUT", path("/campaign"), { body: { rewardRules: { holdDays: 90 } } });
    expect(again.json.rewardRules).toEqual({ maxRewardsPerReferrer: { perDay: 5, lifetime: 50 }, disposableEmail: "review", sameDevice: "off", holdDays: 90 });
    await call("PUT", path("/campaign"), { body: { rewardRules: { holdDays: 0, maxRewardsPerReferrer: {} } } });
  });

  const bad: [string, unknown, string][] = [
    ["a cap of 0", { maxRewardsPerReferrer: { perDay: 0 } }, "rewardRules.maxRewardsPerReferrer.perDay"],
    ["a fractional cap", { maxRewardsPerReferrer: { lifetime: 1.5 } }, "rewardRules.maxRewardsPerReferrer.lifetime"],
    ["a cap given as a string", { maxRewardsPerReferrer: { perMonth: "3" } }, "rewardRules.maxRewardsPerReferrer.perMonth"],
    ["an unknown cap", { maxRewardsPerReferrer: { perWeek: 3 } }, "rewardRules.maxRewardsPerReferrer"],
    ["an unknown rule value", { sameDevice: "maybe" }, "rewardRules.sameDevice"],
    ["holdDays over 90", { holdDays: 91 }, "rewardRules.holdDays"],
    ["negative holdDays", { holdDays: -1 }, "rewardRules.holdDays"],
    ["an unknown rule", { velocity: "block" }, "rewardRules"],
  ];
  it.each(bad)("answers 400 naming the field for %s", async (_label, rewardRules, field) => {
    expectProblem(await call("PUT", path("/campaign"), { body: { rewardRules } }), 400, [field]);
  });
});

describe("the review queue", () => {
  beforeAll(async () => {
    expect((await call("PUT", path("/campaign"), { body: { rewardRules: { disposableEmail: "review" } } })).status).toBe(200);
  });

  it("lists held rewards in the list envelope, with both users, the event and why", async () => {
    const held = await heldItem();
    const res = await readOnly("GET", path("/reviews?pageSize=100"));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ page: 1, pageSize: 100, hasNextPage: false });
    expect(res.json.items).toContainEqual({
      trackingId: held.trackingId,
      referrerId: held.referrer.clientProvidedId,
      referrerUniqueId: held.referrer.uniqueId,
      refereeId: held.referee.clientProvidedId,
      refereeUniqueId: held.referee.uniqueId,
      event: "signup",
      environment: "Production",
      reasons: ["disposable_email"],
      holdUntil: null,
      heldAt: expect.any(String),
    });
    expectProblem(await other("GET", path("/reviews")), 404);
    expectProblem(await call("GET", path("/reviews?pageSize=0")), 400, ["pageSize"]);
  });

  it("approves as the reward would (webhooks through the outbox), then answers 409", async () => {
    const { trackingId } = await heldItem();
    const webhook = await t.db.webhook.create({
      data: { projectId, campaignId: (await call("GET", path("/campaign"))).json.campaignId, name: "h", url: "https://hooks.example.com/h", secretEncrypted: "x", secretHint: "x" },
    });
    expectProblem(await readOnly("POST", path(`/reviews/${trackingId}/approve`)), 403);
    expectProblem(await other("POST", path(`/reviews/${trackingId}/approve`)), 404);
    const res = await member("POST", path(`/reviews/${trackingId}/approve`));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ rewardClaimed: true, status: "Completed", referralTrackingId: trackingId });
    const deliveries = await t.db.delivery.findMany({ where: { trackingId } });
    expect(deliveries.map((d) => d.webhookId)).toEqual([webhook.id]);
    expect(scheduler.enqueued).toContain(deliveries[0]!.id);
    expectProblem(await call("POST", path(`/reviews/${trackingId}/approve`)), 409);
    expectProblem(await call("POST", path(`/reviews/${trackingId}/deny`)), 409);
    await t.db.webhook.delete({ where: { id: webhook.id } });
  });

  it("denies: the item fails with denied_in_review; unknown ids are 404", async () => {
    const { trackingId } = await heldItem();
    const res = await call("POST", path(`/reviews/${trackingId}/deny`));
    expect(res.json).toEqual({ rewardClaimed: false, status: "Failed", reason: "denied_in_review", referralTrackingId: trackingId });
    expect((await call("GET", path("/reviews?pageSize=100"))).json.items.map((i: { trackingId: string }) => i.trackingId)).not.toContain(trackingId);
    expectProblem(await call("POST", path(`/reviews/00000000-0000-0000-0000-000000000000/deny`)), 404);
  });
});

describe("the same-device rule through the client library", () => {
  it("records where init-app-user saw a user only while the rule is on, and refuses a referee on the referrer's address", async () => {
    const { sdkClient, createSdkProject } = await import("@/test/sdk");
    const { PEER_ADDRESS_HEADER } = await import("@/server/http/peer-address");
    const sdk = sdkClient(t.db);
    const project = await createSdkProject(call, { name: "Devices" });
    const init = (userId: string, ip: string) => sdk("init-app-user", { key: project.secret, body: { userId }, headers: { [PEER_ADDRESS_HEADER]: ip } });

    expect((await init("early", "203.0.113.20")).status).toBe(200);
    expect(await t.db.appUserSighting.count({ where: { projectId: project.projectId } })).toBe(0);

    expect((await call("PUT", path("/campaign", project.projectId), { body: { rewardRules: { sameDevice: "block" } } })).status).toBe(200);
    const referrer = (await init("farmer", "203.0.113.20")).json;
    expect((await init("farmer-alt", "203.0.113.20")).status).toBe(200);
    expect((await init("stranger", "198.51.100.20")).status).toBe(200);
    expect(await t.db.appUserSighting.count({ where: { projectId: project.projectId } })).toBe(3);

    const reward = async (refereeId: string) => {
      const { trackingId } = await trackOverRest(call, project.projectId, referrer, refereeId);
      return (await call("POST", path("/referrals/reward", project.projectId), { body: { ReferralTrackingId: trackingId } })).json;
    };
    expect(await reward("farmer-alt")).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "same_device" });
    expect(await reward("stranger")).toMatchObject({ rewardClaimed: true });
  });
});
