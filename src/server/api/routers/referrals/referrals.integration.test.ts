import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { WebhookEnvironment } from "@/generated/prisma/client";
import { recordingScheduler } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { DAY_MS as DAY, uniqueName as uid } from "@/test/names";
import {
  createAppUserOverRest,
  createProjectOverRest as createProject,
  expectProblem,
  type RestAppUser as AppUser,
  type RestClient,
  restClientForNewOrg,
  type RestResponse,
  trackOverRest,
} from "@/test/rest";
import { dataSnapshot } from "@/test/snapshot";

/*
 * Referral links, tracking, rewards, the referral list and the activity feed over HTTP: the real REST
 * handler with real Requests, against this file's own database. The eligibility rules are tested in
 * depth beside the domain code; this file checks that each outcome reaches the HTTP surface with the
 * right status and body, and that bad or foreign requests change nothing.
 */

/** What the reward calls told the scheduler. */
const scheduler = recordingScheduler();

const REDIRECT = "https://shop.example.com/join";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NO_SUCH_ID = "00000000-0000-0000-0000-000000000000";

let t: TestDb;
let call: RestClient;
let other: RestClient;
let projectId: string;
/** A second project of the same organisation. */
let siblingProjectId: string;
/** Another organisation's project, with a user and a Pending tracking item of its own. */
let foreign: { projectId: string; referrer: AppUser; trackingId: string };

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db, { scheduler });
  other = await restClientForNewOrg(t.db);
  projectId = await createProject(call, "Main");
  siblingProjectId = await createProject(call, "Sibling");
  const foreignProject = await createProject(other, "Theirs");
  const foreignReferrer = (await other("POST", `/projects/${foreignProject}/users`, { body: { ClientProvidedId: "their-referrer" } })).json;
  const foreignTrack = await other("POST", `/projects/${foreignProject}/referrals/track`, {
    body: { ReferralCode: foreignReferrer.referralCode, RefereeId: "their-referee" },
  });
  expect(foreignTrack.status).toBe(200);
  foreign = { projectId: foreignProject, referrer: foreignReferrer, trackingId: foreignTrack.json.referralTrackingId };
});
afterAll(() => t?.drop());
beforeEach(() => scheduler.enqueued.splice(0));

const path = (suffix: string, pid = projectId) => `/projects/${pid}${suffix}`;

const createUser = (clientProvidedId = uid("referrer"), pid = projectId) => createAppUserOverRest(call, pid, clientProvidedId);

/** A fresh referrer and a tracked arrival of a fresh referee. */
async function tracked(opts: { rewardEventName?: string; referrer?: AppUser; refereeId?: string; pid?: string } = {}) {
  const pid = opts.pid ?? projectId;
  const referrer = opts.referrer ?? (await createUser(undefined, pid));
  const refereeId = opts.refereeId ?? uid("referee");
  return { referrer, refereeId, ...(await trackOverRest(call, pid, referrer, refereeId, opts.rewardEventName)) };
}

const reward = (trackingId: string, extra: Record<string, unknown> = {}, pid = projectId, headers?: Record<string, string>) =>
  call("POST", path("/referrals/reward", pid), { body: { ReferralTrackingId: trackingId, ...extra }, headers });

async function expectUnchanged(before: string) {
  expect(await dataSnapshot(t.db)).toBe(before);
}

const item = (trackingId: string) => t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } });

describe("POST /referrals/link", () => {
  it("answers 200 with <redirect>?referralCode=CODE from PascalCase fields", async () => {
    const referrer = await createUser();
    const res = await call("POST", path("/referrals/link"), { body: { ReferrerId: referrer.clientProvidedId } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toEqual({
      referralLink: `${REDIRECT}?referralCode=${referrer.referralCode}`,
      referralCode: referrer.referralCode,
      referrerId: referrer.clientProvidedId,
      rewardEventName: null,
    });
  });

  it("appends a URL-encoded rewardEventName (camelCase fields)", async () => {
    const referrer = await createUser(uid("link/ü ser"));
    const event = "Paid & subscribed/ü?=#";
    const res = await call("POST", path("/referrals/link"), { body: { referrerId: referrer.clientProvidedId, rewardEventName: event } });
    expect(res.status).toBe(200);
    expect(res.json.referralLink).toBe(`${REDIRECT}?referralCode=${referrer.referralCode}&rewardEventName=${encodeURIComponent(event)}`);
    const link = new URL(res.json.referralLink);
    expect(link.origin + link.pathname).toBe(REDIRECT);
    expect([...link.searchParams.keys()]).toEqual(["referralCode", "rewardEventName"]);
    expect(link.searchParams.get("rewardEventName")).toBe(event);
    expect(link.hash).toBe("");
    expect(res.json.rewardEventName).toBe(event);
  });

  it("answers 400 naming referralRedirectLink when the project has none", async () => {
    const bare = await createProject(call, "No redirect", null);
    const referrer = await createUser(undefined, bare);
    const res = await call("POST", path("/referrals/link", bare), { body: { ReferrerId: referrer.clientProvidedId } });
    expectProblem(res, 400, [["referralRedirectLink", "required"]]);
    // It works once the project has one.
    expect((await call("PUT", `/projects/${bare}`, { body: { referralRedirectLink: REDIRECT } })).status).toBe(200);
    expect((await call("POST", path("/referrals/link", bare), { body: { ReferrerId: referrer.clientProvidedId } })).status).toBe(200);
  });

  it("answers 404 for an unknown referrer, and for a referrer of another project", async () => {
    const before = await dataSnapshot(t.db);
    const res = await call("POST", path("/referrals/link"), { body: { ReferrerId: "nobody" } });
    expectProblem(res, 404);
    expect(res.json.type).toBe("urn:referloop:problem:not-found");
    const sibling = await createUser(undefined, siblingProjectId);
    const after = await dataSnapshot(t.db);
    expectProblem(await call("POST", path("/referrals/link"), { body: { ReferrerId: sibling.clientProvidedId } }), 404);
    expect(before).not.toBe(after); // the sibling user was created in between
    await expectUnchanged(after);
  });

  const bad: [string, unknown, string][] = [
    ["a missing ReferrerId", {}, "referrerId"],
    ["a ReferrerId of the wrong type", { ReferrerId: 42 }, "referrerId"],
    ["a blank RewardEventName", { ReferrerId: "x", RewardEventName: "  " }, "rewardEventName"],
    ["a RewardEventName of the wrong type", { ReferrerId: "x", RewardEventName: true }, "rewardEventName"],
    ["an over-long RewardEventName", { ReferrerId: "x", RewardEventName: "e".repeat(201) }, "rewardEventName"],
  ];
  it.each(bad)("answers 400 for %s", async (_label, body, field) => {
    const before = await dataSnapshot(t.db);
    expectProblem(await call("POST", path("/referrals/link"), { body }), 400, [field]);
    await expectUnchanged(before);
  });
});

describe("POST /referrals/track", () => {
  it("creates a Pending item with a UUID tracking id and creates the missing referee", async () => {
    const referrer = await createUser();
    const refereeId = uid("new referee/ü");
    const res = await call("POST", path("/referrals/track"), { body: { ReferralCode: referrer.referralCode, RefereeId: refereeId } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({
      referrerId: referrer.clientProvidedId,
      refereeId,
      referralCode: referrer.referralCode,
      rewardEventName: null,
      status: "Pending",
      failureReason: null,
      rewardClaimed: false,
      rewardClaimedAt: null,
      promotionalText: "",
    });
    expect(res.json.referralTrackingId).toMatch(UUID);
    expect(await item(res.json.referralTrackingId)).toMatchObject({ projectId, status: "Pending", rewardClaimed: false });
    const referee = await t.db.appUser.findUniqueOrThrow({ where: { projectId_clientProvidedId: { projectId, clientProvidedId: refereeId } } });
    expect(referee).toMatchObject({ totalReferralsReceived: 1 });
    expect((await t.db.appUserCounters.findUniqueOrThrow({ where: { appUserId: referrer.uniqueId } })).totalReferralsGiven).toBe(1);
    expect(res.json).toMatchObject({ referrerUniqueId: referrer.uniqueId, refereeUniqueId: referee.id });
  });

  it("reuses an existing referee, keeps the link's event, and returns the campaign's promo text", async () => {
    const referrer = await createUser();
    const referee = await createUser(uid("existing-referee"));
    const promo = await call("PUT", path("/campaign", siblingProjectId), { body: { NewUserExperience: { promoText: "Welcome, friend!" } } });
    expect(promo.status).toBe(200);
    const sibling = await createUser(undefined, siblingProjectId);
    const inSibling = await call("POST", path("/referrals/track", siblingProjectId), {
      body: { referralCode: sibling.referralCode, refereeId: uid("r"), rewardEventName: "purchase" },
    });
    expect(inSibling.json).toMatchObject({ promotionalText: "Welcome, friend!", rewardEventName: "purchase" });

    const res = await call("POST", path("/referrals/track"), { body: { ReferralCode: referrer.referralCode, RefereeId: referee.clientProvidedId } });
    expect(res.status).toBe(200);
    expect(res.json.promotionalText).toBe("");
    expect(await t.db.appUser.count({ where: { projectId, clientProvidedId: referee.clientProvidedId } })).toBe(1);
    expect((await item(res.json.referralTrackingId)).refereeId).toBe(referee.uniqueId);
  });

  it("answers 404 for an unknown code or a code of another project, creating neither item nor referee", async () => {
    const sibling = await createUser(undefined, siblingProjectId);
    const before = await dataSnapshot(t.db);
    for (const code of ["ZZZZZZ", sibling.referralCode]) {
      const res = await call("POST", path("/referrals/track"), { body: { ReferralCode: code, RefereeId: "would-be-referee" } });
      expectProblem(res, 404);
    }
    await expectUnchanged(before);
  });

  it("answers 400 naming refereeId for a self-referral, creating nothing", async () => {
    const referrer = await createUser();
    const before = await dataSnapshot(t.db);
    const res = await call("POST", path("/referrals/track"), { body: { ReferralCode: referrer.referralCode, RefereeId: referrer.clientProvidedId } });
    expectProblem(res, 400, [["refereeId", "self_referral"]]);
    await expectUnchanged(before);
  });

  const bad: [string, unknown, string][] = [
    ["a missing ReferralCode", { RefereeId: "x" }, "referralCode"],
    ["a ReferralCode of the wrong type", { ReferralCode: 123456, RefereeId: "x" }, "referralCode"],
    ["a missing RefereeId", { ReferralCode: "ABCDEF" }, "refereeId"],
    ["a RefereeId of the wrong type", { ReferralCode: "ABCDEF", RefereeId: 7 }, "refereeId"],
    ["a blank RefereeId", { ReferralCode: "ABCDEF", RefereeId: " " }, "refereeId"],
    ["a blank RewardEventName", { ReferralCode: "ABCDEF", RefereeId: "x", RewardEventName: "" }, "rewardEventName"],
  ];
  it.each(bad)("answers 400 for %s, creating nothing", async (_label, body, field) => {
    const before = await dataSnapshot(t.db);
    expectProblem(await call("POST", path("/referrals/track"), { body }), 400, [field]);
    await expectUnchanged(before);
  });
});

describe("POST /referrals/reward", () => {
  it("claims the reward: Completed, history, counters, and a second call is already_completed", async () => {
    const { trackingId, referrer } = await tracked();
    const res = await reward(trackingId, { EventName: "signup" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toEqual({ rewardClaimed: true, status: "Completed", referralTrackingId: trackingId, rewardClaimedAt: expect.any(String) });
    expect(new Date(res.json.rewardClaimedAt).toISOString()).toBe(res.json.rewardClaimedAt);
    expect(await item(trackingId)).toMatchObject({ status: "Completed", rewardClaimed: true });
    expect(await t.db.rewardHistory.count({ where: { trackingId } })).toBe(1);

    const again = await reward(trackingId, { EventName: "signup" });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ rewardClaimed: false, status: "Completed", reason: "already_completed", referralTrackingId: trackingId });
    expect(await t.db.rewardHistory.count({ where: { trackingId } })).toBe(1);
    expect((await call("GET", path(`/users/${referrer.uniqueId}`))).json.successfulReferrals).toBe(1);
  });

  it("keeps the item Pending on event_mismatch (names are case-sensitive); the right event then claims", async () => {
    const { trackingId } = await tracked({ rewardEventName: "purchase" });
    for (const eventName of ["signup", "Purchase", "PURCHASE", "purchase-2"]) {
      const res = await reward(trackingId, { EventName: eventName });
      expect(res.status).toBe(200);
      expect(res.json, eventName).toEqual({ rewardClaimed: false, status: "Pending", reason: "event_mismatch", referralTrackingId: trackingId });
      expect((await item(trackingId)).status).toBe("Pending");
    }
    const listed = await call("GET", path("/referrals?status=Pending&PageSize=100"));
    expect(listed.json.items.map((i: { referralTrackingId: string }) => i.referralTrackingId)).toContain(trackingId);

    const res = await reward(trackingId, { eventName: "purchase" });
    expect(res.json).toMatchObject({ rewardClaimed: true, status: "Completed" });
    expect((await item(trackingId)).status).toBe("Completed");
  });

  it("compares event names exactly: surrounding spaces make a different event", async () => {
    const { trackingId } = await tracked({ rewardEventName: "purchase" });
    const spaced = await reward(trackingId, { EventName: "purchase " });
    expect(spaced.json).toMatchObject({ rewardClaimed: false, status: "Pending", reason: "event_mismatch" });
    const exact = await reward(trackingId, { EventName: "purchase" });
    expect(exact.json).toMatchObject({ rewardClaimed: true, status: "Completed" });
  });

  it("lets the item's own event claim when EventName is omitted", async () => {
    const { trackingId } = await tracked({ rewardEventName: "purchase" });
    expect((await reward(trackingId)).json).toMatchObject({ rewardClaimed: true, status: "Completed" });
  });

  it("fails an item older than the attribution window with expired; later calls are already_failed", async () => {
    const { trackingId } = await tracked();
    await t.db.referralTracking.update({ where: { id: trackingId }, data: { createdAt: new Date(Date.now() - 31 * DAY) } });
    const res = await reward(trackingId);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ rewardClaimed: false, status: "Failed", reason: "expired", referralTrackingId: trackingId });
    expect(await item(trackingId)).toMatchObject({ status: "Failed", failureReason: "expired", rewardClaimed: false });
    expect(await t.db.rewardHistory.count({ where: { trackingId } })).toBe(0);
    expect((await reward(trackingId)).json).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "already_failed" });
  });

  it("still claims an item just inside the attribution window", async () => {
    const { trackingId } = await tracked();
    await t.db.referralTracking.update({ where: { id: trackingId }, data: { createdAt: new Date(Date.now() - 29 * DAY) } });
    expect((await reward(trackingId)).json).toMatchObject({ rewardClaimed: true });
  });

  it("fails a second item of the same referrer and referee with duplicate_referee", async () => {
    const first = await tracked();
    const second = await tracked({ referrer: first.referrer, refereeId: first.refereeId });
    expect((await reward(first.trackingId)).json.rewardClaimed).toBe(true);
    const res = await reward(second.trackingId);
    expect(res.json).toEqual({ rewardClaimed: false, status: "Failed", reason: "duplicate_referee", referralTrackingId: second.trackingId });
    expect(await item(second.trackingId)).toMatchObject({ status: "Failed", failureReason: "duplicate_referee" });
    expect((await call("GET", path(`/users/${first.referrer.uniqueId}`))).json).toMatchObject({ totalReferralsGiven: 2, successfulReferrals: 1 });
  });

  it("fails a self-referral item (stored before the track-time check) with self_referral", async () => {
    const user = await createUser();
    const campaign = (await call("GET", path("/campaign"))).json;
    const selfItem = await t.db.referralTracking.create({
      data: { projectId, campaignId: campaign.campaignId, referrerId: user.uniqueId, refereeId: user.uniqueId, referralCode: user.referralCode },
    });
    expect((await reward(selfItem.id)).json).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "self_referral" });
  });

  it("answers 404 for an unknown tracking id and for one of another project of the same organisation", async () => {
    const sibling = await tracked({ pid: siblingProjectId });
    const before = await dataSnapshot(t.db);
    expectProblem(await reward(NO_SUCH_ID), 404);
    expectProblem(await reward("not-a-uuid"), 404);
    const res = await reward(sibling.trackingId);
    expectProblem(res, 404);
    expect(res.json.type).toBe("urn:referloop:problem:not-found");
    await expectUnchanged(before);
    expect((await item(sibling.trackingId)).status).toBe("Pending");
  });

  const bad: [string, Record<string, unknown>, string, string?][] = [
    ["an Environment that is neither Sandbox nor Production", { Environment: "Staging" }, "environment", "invalid_value"],
    ["the webhook scope Both as Environment", { Environment: "Both" }, "environment", "invalid_value"],
    ["an Environment of the wrong type", { Environment: 1 }, "environment"],
    ["a blank EventName", { EventName: "   " }, "eventName"],
    ["an EventName of the wrong type", { EventName: ["signup"] }, "eventName", "invalid_type"],
    ["a ReferralTrackingId of the wrong type", { ReferralTrackingId: 42 }, "referralTrackingId", "invalid_type"],
    ["a blank ReferralTrackingId", { ReferralTrackingId: "" }, "referralTrackingId"],
  ];
  it.each(bad)("answers 400 for %s and leaves the item Pending", async (_label, extra, field, rule) => {
    const { trackingId } = await tracked();
    const before = await dataSnapshot(t.db);
    expectProblem(await reward(trackingId, extra), 400, [rule ? [field, rule] : field]);
    await expectUnchanged(before);
    expect((await item(trackingId)).status).toBe("Pending");
  });

  it("answers 400 for a missing ReferralTrackingId", async () => {
    const before = await dataSnapshot(t.db);
    expectProblem(await call("POST", path("/referrals/reward"), { body: { EventName: "signup" } }), 400, ["referralTrackingId"]);
    await expectUnchanged(before);
  });
});

describe("the webhook outbox of a reward", () => {
  let hookProject: string;
  let campaignId: string;
  let hooks: Record<string, string>;

  beforeAll(async () => {
    hookProject = await createProject(call, "Hooks");
    campaignId = (await call("GET", path("/campaign", hookProject))).json.campaignId;
    const webhook = async (name: string, environment: WebhookEnvironment, enabled: boolean, pid = hookProject, cid = campaignId) =>
      (
        await t.db.webhook.create({
          data: { name, url: `https://hooks.example.com/${name}`, secretEncrypted: "x", secretHint: "x", enabled, environment, campaignId: cid, projectId: pid },
        })
      ).id;
    const siblingCampaign = (await call("GET", path("/campaign", siblingProjectId))).json.campaignId;
    hooks = {
      production: await webhook("production", "Production", true),
      sandbox: await webhook("sandbox", "Sandbox", true),
      both: await webhook("both", "Both", true),
      productionOff: await webhook("production-off", "Production", false),
      bothOff: await webhook("both-off", "Both", false),
      elsewhere: await webhook("elsewhere", "Both", true, siblingProjectId, siblingCampaign),
    };
  });

  const deliveredTo = async (trackingId: string) =>
    (await t.db.delivery.findMany({ where: { trackingId } })).map((d) => Object.entries(hooks).find(([, id]) => id === d.webhookId)?.[0]).sort();

  it.each([
    ["Production", ["both", "production"]],
    ["Sandbox", ["both", "sandbox"]],
    [undefined, ["both", "production", "sandbox"]],
  ] as const)("queues one delivery per enabled webhook matching Environment %s", async (environment, expected) => {
    const { trackingId, referrer, refereeId } = await tracked({ pid: hookProject });
    const res = await reward(trackingId, { EventName: "signup", ...(environment ? { Environment: environment } : {}) }, hookProject);
    expect(res.json.rewardClaimed).toBe(true);
    expect(await deliveredTo(trackingId)).toEqual(expected);
    const deliveries = await t.db.delivery.findMany({ where: { trackingId } });
    for (const d of deliveries) {
      expect(d).toMatchObject({ status: "Pending", eventName: "signup", projectId: hookProject });
      expect(d.payload).toEqual({
        event: "signup",
        referrerId: referrer.clientProvidedId,
        refereeId,
        rewardClaimedAt: res.json.rewardClaimedAt,
        trackingId,
        rewardStatus: "Completed",
        projectId: hookProject,
        projectName: "Hooks",
        campaignId,
      });
    }
    expect([...scheduler.enqueued].sort()).toEqual(deliveries.map((d) => d.id).sort());
  });

  it("queues nothing after a failed check, an event mismatch or a repeated claim", async () => {
    const expired = await tracked({ pid: hookProject });
    await t.db.referralTracking.update({ where: { id: expired.trackingId }, data: { createdAt: new Date(Date.now() - 40 * DAY) } });
    expect((await reward(expired.trackingId, {}, hookProject)).json.reason).toBe("expired");
    expect(await t.db.delivery.count({ where: { trackingId: expired.trackingId } })).toBe(0);

    const mismatch = await tracked({ pid: hookProject, rewardEventName: "purchase" });
    expect((await reward(mismatch.trackingId, { EventName: "signup" }, hookProject)).json.reason).toBe("event_mismatch");
    expect(await t.db.delivery.count({ where: { trackingId: mismatch.trackingId } })).toBe(0);

    const first = await tracked({ pid: hookProject });
    const duplicate = await tracked({ pid: hookProject, referrer: first.referrer, refereeId: first.refereeId });
    expect((await reward(first.trackingId, { Environment: "Production" }, hookProject)).json.rewardClaimed).toBe(true);
    const queued = await t.db.delivery.findMany({ where: { trackingId: first.trackingId }, orderBy: { id: "asc" } });
    expect(queued).toHaveLength(2);
    scheduler.enqueued.splice(0);
    expect((await reward(duplicate.trackingId, {}, hookProject)).json.reason).toBe("duplicate_referee");
    expect(await t.db.delivery.count({ where: { trackingId: duplicate.trackingId } })).toBe(0);
    expect((await reward(first.trackingId, {}, hookProject)).json.reason).toBe("already_completed");
    expect(await t.db.delivery.findMany({ where: { trackingId: first.trackingId }, orderBy: { id: "asc" } })).toEqual(queued);
    expect(scheduler.enqueued).toEqual([]);
  });

  it("queues nothing for a 400 or 404 reward call", async () => {
    const { trackingId } = await tracked({ pid: hookProject });
    const before = await t.db.delivery.count();
    expectProblem(await reward(trackingId, { Environment: "Staging" }, hookProject), 400);
    expectProblem(await reward(trackingId, {}, siblingProjectId), 404);
    expect(await t.db.delivery.count()).toBe(before);
  });
});

describe("GET /referrals", () => {
  let listProject: string;
  let ids: { pending: string; completed: string; expired: string; duplicate: string };

  beforeAll(async () => {
    listProject = await createProject(call, "Referral list");
    const pending = await tracked({ pid: listProject });
    const completed = await tracked({ pid: listProject });
    const duplicate = await tracked({ pid: listProject, referrer: completed.referrer, refereeId: completed.refereeId });
    const expired = await tracked({ pid: listProject });
    await reward(completed.trackingId, {}, listProject);
    await reward(duplicate.trackingId, {}, listProject);
    await t.db.referralTracking.update({ where: { id: expired.trackingId }, data: { createdAt: new Date(Date.now() - 31 * DAY) } });
    await reward(expired.trackingId, {}, listProject);
    ids = { pending: pending.trackingId, completed: completed.trackingId, expired: expired.trackingId, duplicate: duplicate.trackingId };
  });

  const list = (query = "") => call("GET", path(`/referrals${query}`, listProject));
  const trackingIds = (res: RestResponse) => res.json.items.map((i: { referralTrackingId: string }) => i.referralTrackingId);

  it("lists every item newest first in the paged envelope", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ page: 1, pageSize: 20, totalCount: 4, hasNextPage: false });
    // The expired item was moved back in time, so it is the oldest.
    expect(trackingIds(res)).toEqual([ids.duplicate, ids.completed, ids.pending, ids.expired]);
    const paged = await list("?PageSize=3&Page=1");
    expect(paged.json).toMatchObject({ pageSize: 3, totalCount: 4, hasNextPage: true });
    expect(trackingIds(await list("?pageSize=3&page=2"))).toEqual([ids.expired]);
  });

  it("shows the failure reasons of Failed items (status in any case)", async () => {
    const res = await list("?status=Failed");
    expect(res.status).toBe(200);
    expect(res.json.totalCount).toBe(2);
    const byId = Object.fromEntries(res.json.items.map((i: { referralTrackingId: string }) => [i.referralTrackingId, i]));
    expect(byId[ids.expired]).toMatchObject({ status: "Failed", failureReason: "expired", rewardClaimed: false, rewardClaimedAt: null });
    expect(byId[ids.duplicate]).toMatchObject({ status: "Failed", failureReason: "duplicate_referee", rewardClaimed: false });
    expect(trackingIds(await list("?Status=completed"))).toEqual([ids.completed]);
    const completed = (await list("?status=COMPLETED")).json.items[0];
    expect(completed).toMatchObject({ status: "Completed", failureReason: null, rewardClaimed: true, rewardClaimedAt: expect.any(String) });
    expect(trackingIds(await list("?status=pending"))).toEqual([ids.pending]);
  });

  it.each([
    ["?status=Done", "status"],
    ["?PageSize=0", "pageSize"],
    ["?PageSize=101", "pageSize"],
    ["?Page=0", "page"],
    ["?Page=abc", "page"],
  ])("answers 400 for %s naming the field", async (query, field) => {
    expectProblem(await list(query), 400, [field]);
  });

  it("accepts a ProjectId query parameter equal to the path and refuses another", async () => {
    expect((await list(`?ProjectId=${listProject}`)).json.totalCount).toBe(4);
    expectProblem(await list(`?ProjectId=${projectId}`), 400, ["ProjectId"]);
  });
});

describe("GET /activity", () => {
  it("shows the project's events newest first in the paged envelope", async () => {
    const pid = await createProject(call, "Activity");
    const referrer = await createUser("act-referrer", pid);
    const first = await tracked({ pid, referrer, refereeId: "act-referee", rewardEventName: "purchase" });
    await reward(first.trackingId, { EventName: "signup" }, pid);
    await reward(first.trackingId, { EventName: "purchase" }, pid);
    const second = await tracked({ pid, referrer, refereeId: "act-referee" });
    await reward(second.trackingId, {}, pid);

    const res = await call("GET", path("/activity", pid));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ page: 1, pageSize: 20, totalCount: 7, hasNextPage: false });
    expect(res.json.items.map((a: { type: string }) => a.type)).toEqual([
      "reward_rejected",
      "referral_tracked",
      "reward_claimed",
      "event_recorded",
      "referral_tracked",
      "user_created",
      "user_created",
    ]);
    const referee = (await call("GET", path("/users/by-user-id/act-referee", pid))).json;
    expect(res.json.items.map((a: { appUserId: string }) => a.appUserId)).toEqual([
      referrer.uniqueId,
      referrer.uniqueId,
      referrer.uniqueId,
      referrer.uniqueId,
      referrer.uniqueId,
      referee.uniqueId,
      referrer.uniqueId,
    ]);
    for (const a of res.json.items) expect(a).toMatchObject({ id: expect.any(String), description: expect.any(String), createdAt: expect.any(String) });
    expect(res.json.items[0].description).toContain("duplicate_referee");

    const page = await call("GET", path("/activity?PageSize=3&Page=2", pid));
    expect(page.json).toMatchObject({ page: 2, pageSize: 3, totalCount: 7, hasNextPage: true });
    expect(page.json.items.map((a: { id: string }) => a.id)).toEqual(res.json.items.slice(3, 6).map((a: { id: string }) => a.id));
    expect((await call("GET", path("/activity?pageSize=3&page=3", pid))).json).toMatchObject({ hasNextPage: false, items: [expect.anything()] });
    expectProblem(await call("GET", path("/activity?PageSize=101", pid)), 400, ["pageSize"]);
    expectProblem(await call("GET", path("/activity?Page=0", pid)), 400, ["page"]);
  });
});

describe("Idempotency-Key on track, reward and link", () => {
  const key = () => ({ "Idempotency-Key": uid("key") });

  it("track: the same key and body replays the response and creates one item; PascalCase and camelCase are the same body", async () => {
    const referrer = await createUser();
    const headers = key();
    const refereeId = uid("idem-referee");
    const first = await call("POST", path("/referrals/track"), { body: { ReferralCode: referrer.referralCode, RefereeId: refereeId }, headers });
    expect(first.status).toBe(200);
    const second = await call("POST", path("/referrals/track"), { body: { refereeId, referralCode: referrer.referralCode }, headers });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(await t.db.referralTracking.count({ where: { referrerId: referrer.uniqueId } })).toBe(1);
    expect(await t.db.appUser.count({ where: { projectId, clientProvidedId: refereeId } })).toBe(1);
    expect((await call("GET", path(`/users/${referrer.uniqueId}`))).json.totalReferralsGiven).toBe(1);

    const before = await dataSnapshot(t.db);
    const changed = await call("POST", path("/referrals/track"), { body: { ReferralCode: referrer.referralCode, RefereeId: uid("other") }, headers });
    expectProblem(changed, 422, [["Idempotency-Key", "reused"]]);
    expect(changed.json.type).toBe("urn:referloop:problem:unprocessable");
    await expectUnchanged(before);
  });

  it("reward: the same key replays the claim (no already_completed, no second event); another body is a 422", async () => {
    const { trackingId } = await tracked();
    const headers = key();
    const first = await reward(trackingId, { EventName: "signup" }, projectId, headers);
    expect(first.json.rewardClaimed).toBe(true);
    const second = await call("POST", path("/referrals/reward"), { body: { eventName: "signup", referralTrackingId: trackingId }, headers });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(await t.db.rewardEvent.count({ where: { trackingId } })).toBe(1);
    expect(await t.db.rewardHistory.count({ where: { trackingId } })).toBe(1);

    const before = await dataSnapshot(t.db);
    expectProblem(await reward(trackingId, { EventName: "purchase" }, projectId, headers), 422, ["Idempotency-Key"]);
    expectProblem(await reward(trackingId, { EventName: "signup", Environment: "Sandbox" }, projectId, headers), 422, ["Idempotency-Key"]);
    await expectUnchanged(before);
  });

  it("link: the same key and body replays; another body or another endpoint with the key is a 422", async () => {
    const referrer = await createUser();
    const headers = key();
    const first = await call("POST", path("/referrals/link"), { body: { ReferrerId: referrer.clientProvidedId, RewardEventName: "purchase" }, headers });
    expect(first.status).toBe(200);
    const second = await call("POST", path("/referrals/link"), { body: { rewardEventName: "purchase", referrerId: referrer.clientProvidedId }, headers });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expectProblem(await call("POST", path("/referrals/link"), { body: { ReferrerId: referrer.clientProvidedId }, headers }), 422, ["Idempotency-Key"]);
    const before = await dataSnapshot(t.db);
    const elsewhere = await call("POST", path("/referrals/track"), { body: { ReferralCode: referrer.referralCode, RefereeId: uid("x") }, headers });
    expectProblem(elsewhere, 422, ["Idempotency-Key"]);
    await expectUnchanged(before);
  });

  it("a failed request does not use up the key: the corrected retry runs", async () => {
    const headers = key();
    expectProblem(await call("POST", path("/referrals/track"), { body: { ReferralCode: "ZZZZZZ", RefereeId: "x" }, headers }), 404);
    const referrer = await createUser();
    const res = await call("POST", path("/referrals/track"), { body: { ReferralCode: referrer.referralCode, RefereeId: uid("x") }, headers });
    expect(res.status).toBe(200);
  });
});

describe("another organisation's data is not found, and nothing changes", () => {
  it("answers 404 on every referral endpoint for another organisation's project", async () => {
    const before = await dataSnapshot(t.db);
    const requests: [string, string, unknown?][] = [
      ["POST", "/referrals/link", { ReferrerId: foreign.referrer.clientProvidedId }],
      ["POST", "/referrals/track", { ReferralCode: foreign.referrer.referralCode, RefereeId: "intruder" }],
      ["POST", "/referrals/reward", { ReferralTrackingId: foreign.trackingId }],
      ["GET", "/referrals"],
      ["GET", "/referrals?status=Pending"],
      ["GET", "/activity"],
      ["GET", `/users/${foreign.referrer.uniqueId}/referrals`],
    ];
    for (const [method, suffix, body] of requests) {
      const res = await call(method, path(suffix, foreign.projectId), { body });
      expectProblem(res, 404);
      expect(res.json.type, `${method} ${suffix}`).toBe("urn:referloop:problem:not-found");
      const absent = await call(method, path(suffix, NO_SUCH_ID), { body });
      expect(absent.json.detail, `${method} ${suffix}`).toBe(res.json.detail);
    }
    await expectUnchanged(before);
    expect((await item(foreign.trackingId)).status).toBe("Pending");
  });

  it("answers 404 for another organisation's tracking id, code and referrer under this organisation's project", async () => {
    const before = await dataSnapshot(t.db);
    expectProblem(await reward(foreign.trackingId), 404);
    expectProblem(await reward(foreign.trackingId, { EventName: "signup", Environment: "Production" }), 404);
    expectProblem(await call("POST", path("/referrals/track"), { body: { ReferralCode: foreign.referrer.referralCode, RefereeId: "intruder" } }), 404);
    expectProblem(await call("POST", path("/referrals/link"), { body: { ReferrerId: foreign.referrer.clientProvidedId } }), 404);
    expectProblem(await call("GET", path(`/users/${foreign.referrer.uniqueId}/referrals`)), 404);
    await expectUnchanged(before);
    expect((await item(foreign.trackingId)).status).toBe("Pending");
    // The owner still sees it untouched.
    const theirs = await other("GET", path("/referrals", foreign.projectId));
    expect(theirs.json.items).toEqual([expect.objectContaining({ referralTrackingId: foreign.trackingId, status: "Pending" })]);
  });
});
