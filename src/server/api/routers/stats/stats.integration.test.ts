import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayOf } from "@/lib/schemas/stats";
import { createCaller } from "@/server/api/root";
import { createTestDb, type TestDb } from "@/test/db";
import { testServices } from "@/test/config";
import { createAppUserOverRest, createOrgWithApiKey, createProjectOverRest, expectProblem, restClient, type RestClient, trackOverRest } from "@/test/rest";
import { randomAlphanumeric } from "@/server/domain/tokens";
import { foldCredits } from "@/server/domain/referrals/referral-credits";

/*
 * The figures over a range, checked against counts worked out by hand from rows placed at chosen
 * instants: the first and last millisecond of the range's days, and the milliseconds just outside.
 */

let t: TestDb;
let call: RestClient;
let other: RestClient;
let organizationId: string;
let web: string;
let mobile: string;
const users: Record<string, string> = {};

const at = (iso: string) => new Date(iso);

async function user(projectId: string, name: string) {
  const u = await t.db.appUser.create({ data: { projectId, clientProvidedId: name, referralCode: randomAlphanumeric(6) } });
  users[name] = u.id;
  return u.id;
}

/** A tracking item created at `created`, ending as `status` (Failed at `failedAt`, Completed with a reward claimed at `claimedAt`). */
async function item(
  projectId: string,
  referrer: string,
  referee: string,
  created: string,
  end: { status?: "Pending" } | { status: "Failed"; failedAt: string } | { status: "Completed"; claimedAt: string } = {},
) {
  const campaign = await t.db.campaign.findUniqueOrThrow({ where: { projectId } });
  const status = end.status ?? "Pending";
  const tracking = await t.db.referralTracking.create({
    data: {
      projectId,
      campaignId: campaign.id,
      referrerId: users[referrer]!,
      refereeId: users[referee]!,
      referralCode: "ABCDEF",
      status,
      createdAt: at(created),
      ...(end.status === "Completed" ? { rewardClaimed: true, rewardClaimedAt: at(end.claimedAt) } : {}),
      ...(end.status === "Failed" ? { failureReason: "expired" } : {}),
    },
  });
  // updatedAt is set by the client on every write: placed afterwards, as the failure's instant.
  const updatedAt = end.status === "Failed" ? at(end.failedAt) : at(created);
  await t.db.$executeRaw`UPDATE "ReferralTracking" SET "updatedAt" = ${updatedAt} WHERE "id" = ${tracking.id}`;
  if (end.status === "Completed") {
    await t.db.rewardHistory.create({
      data: { projectId, trackingId: tracking.id, referrerId: users[referrer]!, refereeId: users[referee]!, eventName: "purchase", claimedAt: at(end.claimedAt) },
    });
  }
  return tracking.id;
}

async function delivery(projectId: string, webhookId: string, trackingId: string | null, status: "Succeeded" | "Failed" | "Pending", created: string, attemptCount = 1) {
  return t.db.delivery.create({
    data: { projectId, webhookId, trackingId, eventName: trackingId ? "purchase" : "referloop.test", status, attemptCount, createdAt: at(created) },
  });
}

beforeAll(async () => {
  t = await createTestDb();
  const mine = await createOrgWithApiKey(t.db);
  organizationId = mine.org.id;
  call = restClient(t.db, mine.apiKey);
  other = restClient(t.db, (await createOrgWithApiKey(t.db)).apiKey);
  web = await createProjectOverRest(call, "Web shop");
  const created = await call("POST", "/projects", { body: { name: "Mobile app", appType: "Mobile" } });
  expect(created.status, created.text).toBe(201);
  mobile = created.json.uniqueId;

  for (const name of ["alice", "bob", "carol", "r1", "r2", "r3", "r4", "r5", "r6"]) await user(web, name);
  // Tracked: only t2, t3 and t4 are created within 2026-10-01..03.
  const t1 = await item(web, "alice", "r1", "2026-09-30T23:59:59.999Z", { status: "Completed", claimedAt: "2026-10-01T00:00:00.000Z" });
  const t2 = await item(web, "alice", "r2", "2026-10-01T00:00:00.000Z", { status: "Completed", claimedAt: "2026-10-02T23:59:59.999Z" });
  await item(web, "bob", "r3", "2026-10-02T12:00:00.000Z", { status: "Failed", failedAt: "2026-10-03T23:59:59.999Z" });
  await item(web, "bob", "r4", "2026-10-03T23:59:59.999Z");
  await item(web, "bob", "r5", "2026-10-04T00:00:00.000Z", { status: "Failed", failedAt: "2026-10-04T00:00:00.000Z" });
  // Tracked long before, completed on the last day; and one completed just after the range.
  await item(web, "carol", "r6", "2026-09-01T10:00:00.000Z", { status: "Completed", claimedAt: "2026-10-03T08:00:00.000Z" });
  await item(web, "carol", "alice", "2026-09-02T10:00:00.000Z", { status: "Completed", claimedAt: "2026-10-04T00:00:00.000Z" });

  const campaign = await t.db.campaign.findUniqueOrThrow({ where: { projectId: web } });
  const hook = await t.db.webhook.create({
    data: { projectId: web, campaignId: campaign.id, name: "Billing", url: "https://billing.example.com/hook", secretEncrypted: "x", secretHint: "x" },
  });
  const off = await t.db.webhook.create({
    data: { projectId: web, campaignId: campaign.id, name: "Old", url: "https://old.example.com/hook", secretEncrypted: "x", secretHint: "x", enabled: false },
  });
  const d1 = await delivery(web, hook.id, t1, "Succeeded", "2026-10-01T00:00:00.000Z");
  await delivery(web, hook.id, t2, "Failed", "2026-10-03T23:59:59.999Z", 5);
  await delivery(web, off.id, t2, "Succeeded", "2026-10-04T00:00:00.000Z");
  // A test event is no referral's delivery: left out of the funnel.
  await delivery(web, hook.id, null, "Succeeded", "2026-10-02T00:00:00.000Z");
  // Waiting for its next attempt after a failed one (counted whenever created).
  await delivery(web, off.id, t1, "Pending", "2026-08-01T00:00:00.000Z", 2);
  const attempts: [string, boolean, number][] = [
    ["2026-10-01T00:00:00.000Z", true, 120],
    ["2026-10-02T00:00:00.000Z", true, 80],
    ["2026-10-03T10:00:00.000Z", false, 10_000],
    ["2026-10-03T23:59:59.999Z", true, 200],
    ["2026-10-04T00:00:00.000Z", false, 5],
  ];
  for (const [i, [created, success, ms]] of attempts.entries()) {
    await t.db.deliveryAttempt.create({
      data: { projectId: web, webhookId: hook.id, deliveryId: d1.id, attemptNumber: i + 1, eventType: "purchase", success, responseTimeMs: ms, createdAt: at(created) },
    });
  }
  const events: [string, "Claimed" | "Rejected" | "Recorded", string | null, string][] = [
    ["purchase", "Claimed", null, "2026-10-01T00:00:00.000Z"],
    ["purchase", "Claimed", null, "2026-10-02T23:59:59.999Z"],
    ["purchase", "Rejected", "already_completed", "2026-10-02T10:00:00.000Z"],
    ["signup", "Rejected", "duplicate_referee", "2026-10-03T23:59:59.999Z"],
    ["signup", "Recorded", "event_mismatch", "2026-10-02T00:00:00.000Z"],
    ["signup", "Rejected", "duplicate_referee", "2026-10-02T00:00:00.000Z"],
    ["purchase", "Claimed", null, "2026-09-30T23:59:59.999Z"],
    ["signup", "Claimed", null, "2026-10-04T00:00:00.000Z"],
  ];
  for (const [eventName, outcome, reason, created] of events) {
    await t.db.rewardEvent.create({ data: { projectId: web, eventName, outcome, reason, createdAt: at(created) } });
  }

  for (const [day, clicks] of [["2026-09-30", 5], ["2026-10-01", 2], ["2026-10-03", 4], ["2026-10-04", 7]] as const) {
    await t.db.linkClickDay.create({ data: { projectId: mobile, day: at(`${day}T00:00:00.000Z`), clicks } });
  }
});
afterAll(() => t.drop());

const RANGE = "from=2026-10-01&to=2026-10-03";

describe("GET /projects/{projectId}/stats", () => {
  it("counts what happened within the days, both ends included, by the instant of each step", async () => {
    const res = await call("GET", `/projects/${web}/stats?${RANGE}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      from: "2026-10-01",
      to: "2026-10-03",
      // A Web project has no link clicks: its referrals are tracked without one.
      totals: { clicks: 0, tracked: 3, completed: 3, failed: 1, deliveriesSucceeded: 1, deliveriesFailed: 1, referralsDelivered: 1 },
      daily: [
        { date: "2026-10-01", tracked: 1, completed: 1 },
        { date: "2026-10-02", tracked: 1, completed: 1 },
        { date: "2026-10-03", tracked: 1, completed: 1 },
      ],
    });
  });

  it("answers a single day, and a range without activity with a zero for each day", async () => {
    const one = await call("GET", `/projects/${web}/stats?from=2026-10-04&to=2026-10-04`);
    expect(one.json.totals).toEqual({ clicks: 0, tracked: 1, completed: 1, failed: 1, deliveriesSucceeded: 1, deliveriesFailed: 0, referralsDelivered: 1 });
    const empty = await call("GET", `/projects/${web}/stats?from=2026-07-30&to=2026-08-02`);
    expect(empty.json).toEqual({
      from: "2026-07-30",
      to: "2026-08-02",
      totals: { clicks: 0, tracked: 0, completed: 0, failed: 0, deliveriesSucceeded: 0, deliveriesFailed: 0, referralsDelivered: 0 },
      daily: ["2026-07-30", "2026-07-31", "2026-08-01", "2026-08-02"].map((date) => ({ date, tracked: 0, completed: 0 })),
    });
  });

  it("counts a Mobile project's landing-page clicks by day", async () => {
    expect((await call("GET", `/projects/${mobile}/stats?${RANGE}`)).json.totals.clicks).toBe(6);
    expect((await call("GET", `/projects/${mobile}/stats?from=2026-09-30&to=2026-10-04`)).json.totals.clicks).toBe(18);
  });

  it("defaults to the last 30 days, today included, or to 29 days before a given end", async () => {
    const today = dayOf(new Date());
    const res = await call("GET", `/projects/${web}/stats`);
    expect(res.json).toMatchObject({ from: addDays(today, -29), to: today });
    expect(res.json.daily).toHaveLength(30);
    expect((await call("GET", `/projects/${web}/stats?To=2026-10-03`)).json).toMatchObject({ from: "2026-09-04", to: "2026-10-03" });
    expect((await call("GET", `/projects/${web}/stats?from=${addDays(today, -2)}`)).json.daily).toHaveLength(3);
    expect((await call("GET", `/projects/${web}/stats?from=2025-10-03&to=2026-10-03`)).json.daily).toHaveLength(366);
  });

  it("refuses a bad range with a problem naming the parameter", async () => {
    const base = `/projects/${web}/stats`;
    expectProblem(await call("GET", `${base}?from=2026-10-03&to=2026-10-02`), 400, ["to"]);
    expectProblem(await call("GET", `${base}?from=2026-13-01`), 400, ["from"]);
    expectProblem(await call("GET", `${base}?from=2026-10-1&to=2026-10-03`), 400, ["from"]);
    expectProblem(await call("GET", `${base}?to=2026-10-03T00:00:00Z`), 400, ["to"]);
    expectProblem(await call("GET", `${base}?to=yesterday`), 400, ["to"]);
    expectProblem(await call("GET", `${base}?from=2025-10-02&to=2026-10-03`), 400, [["to", "too_big"]]);
    expectProblem(await call("GET", `${base}?from=2020-01-01`), 400, [["from", "too_big"]]);
    expectProblem(await call("GET", `${base}?from=2999-01-01`), 400, ["from"]);
  });

  it("answers 404 for another organisation's project, as for an unknown one", async () => {
    const theirs = await other("GET", `/projects/${web}/stats`);
    expectProblem(theirs, 404);
    expect(theirs.json.detail).toBe((await other("GET", "/projects/00000000-0000-0000-0000-000000000000/stats")).json.detail);
    expectProblem(await other("GET", `/projects/${web}/leaderboard`), 404);
  });

  it("counts the reward path's own writes: a claim and a failure on the day they happen", async () => {
    const project = await createProjectOverRest(call, "Live");
    const referrer = await createAppUserOverRest(call, project, "live-referrer");
    const first = await trackOverRest(call, project, referrer, "live-referee");
    const second = await trackOverRest(call, project, referrer, "live-referee");
    const reward = (trackingId: string) => call("POST", `/projects/${project}/referrals/reward`, { body: { ReferralTrackingId: trackingId, EventName: "purchase" } });
    expect((await reward(first.trackingId)).json).toMatchObject({ rewardClaimed: true });
    expect((await reward(second.trackingId)).json).toMatchObject({ rewardClaimed: false, status: "Failed" });
    const today = dayOf(new Date());
    const res = await call("GET", `/projects/${project}/stats?from=${today}&to=${today}`);
    // Tracked over REST: no link was clicked.
    expect(res.json.totals).toEqual({ clicks: 0, tracked: 2, completed: 1, failed: 1, deliveriesSucceeded: 0, deliveriesFailed: 0, referralsDelivered: 0 });
    expect(res.json.daily).toEqual([{ date: today, tracked: 2, completed: 1 }]);
  });
});

describe("the daily roll-ups (kept by triggers)", () => {
  it("follow rows moved to another day, failed, deleted, and go with their project", async () => {
    const project = await createProjectOverRest(call, "Changing");
    const referrer = await createAppUserOverRest(call, project, "changing-referrer");
    const a = await trackOverRest(call, project, referrer, "changing-a");
    const b = await trackOverRest(call, project, referrer, "changing-b");
    const today = dayOf(new Date());
    const totals = async (day = today) => (await call("GET", `/projects/${project}/stats?from=${day}&to=${day}`)).json.totals;
    expect(await totals()).toMatchObject({ tracked: 2, failed: 0 });
    // Moved to another day, as a correction would, then failed there and back again.
    await t.db.$executeRaw`UPDATE "ReferralTracking" SET "createdAt" = TIMESTAMP '2026-10-02 12:00:00' WHERE "id" = ${a.trackingId}`;
    expect(await totals()).toMatchObject({ tracked: 1 });
    expect(await totals("2026-10-02")).toMatchObject({ tracked: 1, failed: 0 });
    await t.db.$executeRaw`UPDATE "ReferralTracking" SET "status" = 'Failed', "failureReason" = 'expired', "updatedAt" = TIMESTAMP '2026-10-02 13:00:00' WHERE "id" = ${a.trackingId}`;
    expect(await totals("2026-10-02")).toMatchObject({ tracked: 1, failed: 1 });
    await t.db.$executeRaw`UPDATE "ReferralTracking" SET "updatedAt" = TIMESTAMP '2026-10-05 13:00:00' WHERE "id" = ${a.trackingId}`;
    expect(await totals("2026-10-02")).toMatchObject({ failed: 0 });
    expect(await totals("2026-10-05")).toMatchObject({ failed: 1 });
    await t.db.$executeRaw`UPDATE "ReferralTracking" SET "status" = 'Pending', "failureReason" = NULL WHERE "id" = ${a.trackingId}`;
    expect(await totals("2026-10-05")).toMatchObject({ failed: 0 });
    await t.db.referralTracking.delete({ where: { id: b.trackingId } });
    expect(await totals()).toMatchObject({ tracked: 0 });
    // Reward events, added and deleted.
    await t.db.rewardEvent.create({ data: { projectId: project, eventName: "purchase", outcome: "Rejected", reason: "not_eligible", createdAt: at("2026-10-02T14:00:00Z") } });
    const events = () => t.db.rewardEventDay.aggregate({ where: { projectId: project }, _sum: { count: true } });
    expect((await events())._sum.count).toBe(1);
    await t.db.rewardEvent.deleteMany({ where: { projectId: project } });
    expect((await events())._sum.count).toBe(0);
    // The project goes with everything it holds, its roll-ups too.
    expect((await call("DELETE", `/projects/${project}`)).status).toBe(200);
    expect(await t.db.referralDay.count({ where: { projectId: project } })).toBe(0);
  });
});

describe("GET /projects/{projectId}/leaderboard", () => {
  beforeAll(async () => {
    const set = (name: string, successfulReferrals: number, totalReferralsGiven: number) =>
      t.db.appUserCounters.update({ where: { appUserId: users[name]! }, data: { successfulReferrals, totalReferralsGiven } });
    // The rewards of the tests above are folded first, so the counters hold the values set here alone.
    await foldCredits(t.db, { wait: true });
    await set("alice", 5, 9);
    await set("bob", 5, 12);
    await set("carol", 1, 1);
    await set("r1", 0, 4);
    // Milestones bob reached (the reward claim writes them; see milestones.integration.test.ts).
    for (const [referrals, name] of [[1, "Bronze"], [5, "Gold"]] as const) {
      await t.db.milestoneReached.create({ data: { projectId: web, appUserId: users.bob!, referrals, name } });
    }
  });

  it("ranks by successful referrals, then referrals given, leaving out users without a success; each with the highest milestone reached", async () => {
    const res = await call("GET", `/projects/${web}/leaderboard`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      items: [
        { clientProvidedId: "bob", uniqueId: users.bob, successfulReferrals: 5, totalReferralsGiven: 12, milestone: "Gold" },
        { clientProvidedId: "alice", uniqueId: users.alice, successfulReferrals: 5, totalReferralsGiven: 9, milestone: null },
        { clientProvidedId: "carol", uniqueId: users.carol, successfulReferrals: 1, totalReferralsGiven: 1, milestone: null },
      ],
    });
    expect((await call("GET", `/projects/${web}/leaderboard?Limit=1`)).json.items.map((i: { clientProvidedId: string }) => i.clientProvidedId)).toEqual(["bob"]);
    expect((await call("GET", `/projects/${mobile}/leaderboard?limit=100`)).json).toEqual({ items: [] });
  });

  it("refuses a limit out of bounds with a problem naming it", async () => {
    for (const limit of ["0", "101", "abc", "1.5", "-3"]) expectProblem(await call("GET", `/projects/${web}/leaderboard?limit=${limit}`), 400, ["limit"]);
  });
});

describe("the dashboard's overviews", () => {
  const caller = () =>
    createCaller({
      ...testServices(t.db),
      actor: { kind: "apiKey", apiKeyId: "k", name: "test", organizationId, role: "readOnly" },
      headers: new Headers(),
      via: "trpc",
      requestId: "test",
      responseHeaders: new Headers(),
    });

  it("adds reward events by name, top referrers of the range and webhook health", async () => {
    const overview = await caller().stats.projectOverview({ projectId: web, from: "2026-10-01", to: "2026-10-03" });
    expect(overview.totals.completed).toBe(3);
    expect(overview.rewardEvents).toEqual([
      { eventName: "purchase", claimed: 2, refused: 1, reasons: [{ reason: "already_completed", count: 1 }] },
      { eventName: "signup", claimed: 0, refused: 3, reasons: [{ reason: "duplicate_referee", count: 2 }, { reason: "event_mismatch", count: 1 }] },
    ]);
    expect(overview.topReferrers).toEqual([
      { uniqueId: users.alice, clientProvidedId: "alice", rewards: 2 },
      { uniqueId: users.carol, clientProvidedId: "carol", rewards: 1 },
    ]);
    // Four attempts in the range: 120, 80, 10000 (failed) and 200 ms.
    expect(overview.webhookHealth).toEqual({
      attempts: 4,
      succeeded: 3,
      successRate: 0.75,
      p50Ms: 120,
      p95Ms: 10_000,
      retrying: 1,
      failedWaiting: 1,
      disabledWebhooks: 1,
    });
    const empty = await caller().stats.projectOverview({ projectId: web, from: "2026-07-01", to: "2026-07-01" });
    expect(empty).toMatchObject({ rewardEvents: [], topReferrers: [], webhookHealth: { attempts: 0, successRate: null, p50Ms: null, p95Ms: null } });
  });

  it("gives every project of the organisation its headline figures, and no other's", async () => {
    const overview = await caller().stats.organizationOverview({ from: "2026-10-01", to: "2026-10-03" });
    expect(overview.projects.map((p) => [p.name, p.totals.tracked, p.totals.completed, p.totals.clicks])).toEqual([
      ["Web shop", 3, 3, 0],
      ["Mobile app", 0, 0, 6],
      ["Live", 0, 0, 0],
    ]);
    await expect(caller().stats.organizationOverview({ from: "2026-10-03", to: "2026-10-01" })).rejects.toThrow(/to/);
  });
});

describe("the overview's funnel", () => {
  const caller = () =>
    createCaller({
      ...testServices(t.db),
      actor: { kind: "apiKey", apiKeyId: "k", name: "test", organizationId, role: "readOnly" },
      headers: new Headers(),
      via: "trpc",
      requestId: "test",
      responseHeaders: new Headers(),
    });

  it("counts referrals at each step: a referral delivered to several webhooks once, only link clicks as clicks, and the period before", async () => {
    const project = await createProjectOverRest(call, "Funnel");
    for (const name of ["f-ref", "f1", "f2", "f3", "f4", "f5"]) await user(project, name);
    const campaign = await t.db.campaign.findUniqueOrThrow({ where: { projectId: project } });
    const hooks = await Promise.all(
      ["A", "B", "C"].map((name) =>
        t.db.webhook.create({ data: { projectId: project, campaignId: campaign.id, name, url: `https://${name.toLowerCase()}.example.com/h`, secretEncrypted: "x", secretHint: "x" } }),
      ),
    );
    // The range 2026-10-11..20 (10 days); the period before is 2026-10-01..10.
    const a = await item(project, "f-ref", "f1", "2026-10-11T09:00:00.000Z", { status: "Completed", claimedAt: "2026-10-11T10:00:00.000Z" });
    const b = await item(project, "f-ref", "f2", "2026-10-12T09:00:00.000Z", { status: "Completed", claimedAt: "2026-10-12T10:00:00.000Z" });
    await item(project, "f-ref", "f3", "2026-10-13T09:00:00.000Z");
    // a went to three webhooks and all three succeeded: one referral delivered. b: one failed, one retrying.
    for (const hook of hooks) await delivery(project, hook.id, a, "Succeeded", "2026-10-11T10:00:00.000Z");
    await delivery(project, hooks[0]!.id, b, "Failed", "2026-10-12T10:00:00.000Z", 5);
    await delivery(project, hooks[1]!.id, b, "Pending", "2026-10-12T10:00:00.000Z", 1);
    await delivery(project, hooks[2]!.id, null, "Succeeded", "2026-10-12T11:00:00.000Z");
    // The period before: two tracked, one completed and delivered to two webhooks.
    const c = await item(project, "f-ref", "f4", "2026-10-05T09:00:00.000Z", { status: "Completed", claimedAt: "2026-10-05T10:00:00.000Z" });
    await item(project, "f-ref", "f5", "2026-10-10T23:59:59.999Z");
    for (const hook of hooks.slice(0, 2)) await delivery(project, hook.id, c, "Succeeded", "2026-10-05T10:00:00.000Z");
    await t.db.linkClickDay.create({ data: { projectId: project, day: at("2026-10-15T00:00:00.000Z"), clicks: 4 } });
    await t.db.linkClickDay.create({ data: { projectId: project, day: at("2026-10-10T00:00:00.000Z"), clicks: 9 } });

    const overview = await caller().stats.projectOverview({ projectId: project, from: "2026-10-11", to: "2026-10-20" });
    expect(overview.totals).toEqual({ clicks: 4, tracked: 3, completed: 2, failed: 0, deliveriesSucceeded: 3, deliveriesFailed: 1, referralsDelivered: 1 });
    expect(overview.previous).toEqual({
      from: "2026-10-01",
      to: "2026-10-10",
      totals: { clicks: 9, tracked: 2, completed: 1, failed: 0, deliveriesSucceeded: 2, deliveriesFailed: 0, referralsDelivered: 1 },
    });
    // Each step is at most the step before (a referral delivered is a referral rewarded).
    expect(overview.totals.referralsDelivered).toBeLessThanOrEqual(overview.totals.completed);
    // REST answers the same figures.
    expect((await call("GET", `/projects/${project}/stats?from=2026-10-11&to=2026-10-20`)).json.totals).toEqual(overview.totals);
  });

  it("counts a one-day range against the day before", async () => {
    const overview = await caller().stats.projectOverview({ projectId: web, from: "2026-10-04", to: "2026-10-04" });
    expect(overview.previous.from).toBe("2026-10-03");
    expect(overview.previous.to).toBe("2026-10-03");
    expect(overview.previous.totals.tracked).toBe(1);
  });
});
