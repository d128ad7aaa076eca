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
      refereeEmail: "x@mailinator.com",
      refereeSignals: [],
      referrerHistory: { referrals: 1, rewards: 0, denials: 0 },
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

describe("decisions that tell the truth, with what a reviewer decides on", () => {
  let pid: string;
  const p = (s: string) => path(s, pid);
  /** A referee with a disposable address, referred by `referrer`, held for review. */
  async function held(referrer: { referralCode: string }, email = `${uniqueName("x")}@mailinator.com`) {
    const referee = await createAppUserOverRest(call, pid, uniqueName("referee"), { email });
    const { trackingId } = await trackOverRest(call, pid, referrer, referee.clientProvidedId);
    const res = await call("POST", p("/referrals/reward"), { body: { ReferralTrackingId: trackingId, EventName: "signup" } });
    expect(res.json).toMatchObject({ status: "Pending", reason: "held_for_review" });
    return { trackingId, referee };
  }

  beforeAll(async () => {
    pid = await createProjectOverRest(call, "Review decisions");
    const res = await call("PUT", p("/campaign"), { body: { rewardRules: { disposableEmail: "review", maxRewardsPerReferrer: { lifetime: 1 } } } });
    expect(res.status, res.text).toBe(200);
  });

  it("answers each item's real outcome in a bulk approval: granted, failed with the cap's reason, not in review, not found", async () => {
    const referrer = await createAppUserOverRest(call, pid, uniqueName("capped"));
    const first = await held(referrer);
    const second = await held(referrer);
    const missing = "00000000-0000-4000-8000-000000000000";
    const res = await member("POST", p("/reviews/decide"), {
      body: { decision: "Approve", trackingIds: [first.trackingId, second.trackingId, first.trackingId, missing], note: "checked by hand" },
    });
    expect(res.status, res.text).toBe(200);
    // The second is over the referrer's lifetime cap of 1: it failed, and the answer says so.
    expect(res.json.items).toEqual([
      { trackingId: first.trackingId, outcome: "granted", status: "Completed", reason: null },
      { trackingId: second.trackingId, outcome: "failed", status: "Failed", reason: "referrer_cap_reached" },
      { trackingId: missing, outcome: "not_found", status: null, reason: null },
    ]);
    const again = await call("POST", p("/reviews/decide"), { body: { decision: "deny", trackingIds: [first.trackingId] } });
    expect(again.json.items).toEqual([{ trackingId: first.trackingId, outcome: "not_in_review", status: null, reason: null }]);
    // Each decided item is audited on its own, with the outcome and the note.
    const audits = await t.db.auditEntry.findMany({ where: { action: "review.approve", targetId: { in: [first.trackingId, second.trackingId] } } });
    const byItem = (id: string) => audits.find((a) => a.targetId === id)?.details;
    expect([byItem(first.trackingId), byItem(second.trackingId)]).toEqual([
      { projectId: pid, heldFor: ["disposable_email"], status: "Completed", note: "checked by hand" },
      { projectId: pid, heldFor: ["disposable_email"], status: "Failed", reason: "referrer_cap_reached", note: "checked by hand" },
    ]);
  });

  it("refuses what it must: a bad body naming the field, a read-only key, another organisation's project", async () => {
    const { trackingId } = await held(await createAppUserOverRest(call, pid, uniqueName("r")));
    expectProblem(await call("POST", p("/reviews/decide"), { body: { decision: "approve", trackingIds: [] } }), 400, ["trackingIds"]);
    expectProblem(await call("POST", p("/reviews/decide"), { body: { decision: "maybe", trackingIds: [trackingId] } }), 400, ["decision"]);
    expectProblem(await call("POST", p("/reviews/decide"), { body: { decision: "deny", trackingIds: ["nope"] } }), 400, ["trackingIds.0"]);
    expectProblem(await call("POST", p("/reviews/decide"), { body: { decision: "deny", trackingIds: [trackingId], note: "n".repeat(501) } }), 400, ["note"]);
    expectProblem(await call("POST", p("/reviews/decide"), { body: { decision: "deny", trackingIds: Array.from({ length: 101 }, () => trackingId) } }), 400, ["trackingIds"]);
    expectProblem(await readOnly("POST", p("/reviews/decide"), { body: { decision: "deny", trackingIds: [trackingId] } }), 403);
    expectProblem(await other("POST", p("/reviews/decide"), { body: { decision: "deny", trackingIds: [trackingId] } }), 404);
    // Nothing was decided by the refused calls.
    expect((await call("GET", p("/reviews?pageSize=100"))).json.items.map((i: { trackingId: string }) => i.trackingId)).toContain(trackingId);
  });

  it("lists each held reward with the referee's e-mail and sightings, the referrer's history, and filters by reason", async () => {
    const referrer = await createAppUserOverRest(call, pid, uniqueName("history"));
    // An earlier denial and an earlier reward of this referrer.
    const denied = await held(referrer);
    expect((await call("POST", p(`/reviews/${denied.trackingId}/deny`))).json).toMatchObject({ reason: "denied_in_review" });
    const { trackingId, referee } = await held(referrer, "Ada@Mailinator.com");
    await t.db.appUserSighting.createMany({
      data: [
        { projectId: pid, appUserId: referrer.uniqueId, kind: "ip", value: "203.0.113.9", lastSeenAt: new Date("2026-11-01T10:00:00Z") },
        { projectId: pid, appUserId: referee.uniqueId, kind: "ip", value: "203.0.113.9", lastSeenAt: new Date("2026-11-01T11:00:00Z") },
        { projectId: pid, appUserId: referee.uniqueId, kind: "ip", value: "198.51.100.7", lastSeenAt: new Date("2026-11-02T11:00:00Z") },
      ],
    });
    const items = (await readOnly("GET", p("/reviews?pageSize=100&reason=disposable_email"))).json.items as Record<string, unknown>[];
    expect(items.find((i) => i.trackingId === trackingId)).toMatchObject({
      refereeEmail: "Ada@Mailinator.com",
      refereeSignals: [
        { kind: "ip", value: "198.51.100.7", lastSeenAt: "2026-11-02T11:00:00.000Z", sharedWithReferrer: false },
        { kind: "ip", value: "203.0.113.9", lastSeenAt: "2026-11-01T11:00:00.000Z", sharedWithReferrer: true },
      ],
      referrerHistory: { referrals: 2, rewards: 0, denials: 1 },
    });
    expect((await call("GET", p("/reviews?reason=hold"))).json).toMatchObject({ items: [], totalCount: 0 });
    expectProblem(await call("GET", p("/reviews?reason=gut_feeling")), 400, ["reason"]);
  });

  it("keeps a denial's reason: in the history of decisions, its export and the audit log", async () => {
    const { trackingId } = await held(await createAppUserOverRest(call, pid, uniqueName("denied")));
    const res = await call("POST", p("/reviews/decide"), { body: { decision: "deny", trackingIds: [trackingId], note: "  Referee and referrer share a card " } });
    expect(res.json.items).toEqual([{ trackingId, outcome: "failed", status: "Failed", reason: "denied_in_review" }]);
    const history = await readOnly("GET", p(`/reviews/decisions?trackingId=${trackingId}`));
    expect(history.status, history.text).toBe(200);
    expect(history.json.items).toEqual([
      {
        id: expect.any(String),
        trackingId,
        decision: "deny",
        note: "Referee and referrer share a card",
        heldFor: ["disposable_email"],
        status: "Failed",
        failureReason: "denied_in_review",
        decidedBy: expect.any(String),
        decidedAt: expect.any(String),
      },
    ]);
    // Newest first over the project; another organisation sees nothing of it.
    const all = (await call("GET", p("/reviews/decisions?pageSize=100"))).json.items as { trackingId: string; decidedAt: string }[];
    expect(all[0]!.trackingId).toBe(trackingId);
    expect(all.map((d) => d.decidedAt)).toEqual([...all.map((d) => d.decidedAt)].sort().reverse());
    expectProblem(await other("GET", p("/reviews/decisions")), 404);
    expectProblem(await call("POST", p("/reviews/decide"), { body: { decision: "deny", trackingIds: [trackingId], note: 5 } }), 400, ["note"]);

    const csv = await readOnly("GET", p("/exports/review-decisions.csv"));
    expect(csv.status, csv.text).toBe(200);
    const lines = csv.text.trim().split("\r\n");
    expect(lines[0]).toBe("decidedAt,trackingId,decision,note,heldFor,status,failureReason,decidedBy");
    expect(lines.find((l) => l.includes(trackingId))).toMatch(new RegExp(`,${trackingId},deny,Referee and referrer share a card,disposable_email,Failed,denied_in_review,`));
    expectProblem(await other("GET", p("/exports/review-decisions.csv")), 404);

    const [audit] = await t.db.auditEntry.findMany({ where: { action: "review.deny", targetId: trackingId } });
    expect(audit?.details).toMatchObject({ note: "Referee and referrer share a card", status: "Failed", reason: "denied_in_review" });
  });

  it("keeps a single denial's reason over REST as the bulk one does: history, export, audit; the body stays optional", async () => {
    const { trackingId } = await held(await createAppUserOverRest(call, pid, uniqueName("single")));
    // Refused reasons decide nothing: too long, not text.
    expectProblem(await member("POST", p(`/reviews/${trackingId}/deny`), { body: { note: "n".repeat(501) } }), 400, ["note"]);
    expectProblem(await member("POST", p(`/reviews/${trackingId}/deny`), { body: { note: 5 } }), 400, ["note"]);
    expect((await call("GET", p("/reviews?pageSize=100"))).json.items.map((i: { trackingId: string }) => i.trackingId)).toContain(trackingId);

    const res = await member("POST", p(`/reviews/${trackingId}/deny`), { body: { note: " Card shared with the referrer " } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ rewardClaimed: false, status: "Failed", reason: "denied_in_review", referralTrackingId: trackingId });
    expect((await readOnly("GET", p(`/reviews/decisions?trackingId=${trackingId}`))).json.items).toEqual([
      expect.objectContaining({ trackingId, decision: "deny", note: "Card shared with the referrer", status: "Failed", failureReason: "denied_in_review", decidedBy: "member" }),
    ]);
    const csv = (await readOnly("GET", p("/exports/review-decisions.csv"))).text;
    expect(csv.split("\r\n").find((l) => l.includes(trackingId))).toMatch(new RegExp(`,${trackingId},deny,Card shared with the referrer,disposable_email,Failed,denied_in_review,member$`));
    const audits = await t.db.auditEntry.findMany({ where: { action: "review.deny", targetId: trackingId } });
    expect(audits.map((a) => a.details)).toEqual([{ projectId: pid, heldFor: ["disposable_email"], status: "Failed", reason: "denied_in_review", note: "Card shared with the referrer" }]);

    // Without a body, or with a blank note, the denial keeps no reason.
    for (const body of [undefined, { note: "   " }]) {
      const plain = await held(await createAppUserOverRest(call, pid, uniqueName("plain")));
      expect((await call("POST", p(`/reviews/${plain.trackingId}/deny`), body ? { body } : {})).json).toMatchObject({ status: "Failed", reason: "denied_in_review" });
      expect((await call("GET", p(`/reviews/decisions?trackingId=${plain.trackingId}`))).json.items).toEqual([expect.objectContaining({ decision: "deny", note: null })]);
      const [audit] = await t.db.auditEntry.findMany({ where: { action: "review.deny", targetId: plain.trackingId } });
      expect(audit?.details).not.toHaveProperty("note");
    }
  });

  it("records an ended hold in the history, decided by nobody", async () => {
    const { releaseEndedHolds } = await import("@/server/domain/reviews/release-ended-holds");
    const { trackingId } = await held(await createAppUserOverRest(call, pid, uniqueName("held")));
    await t.db.rewardReview.update({ where: { trackingId }, data: { holdUntil: new Date(Date.now() - 1000) } });
    await releaseEndedHolds({ db: t.db, outbox: scheduler });
    const [decision] = (await call("GET", p(`/reviews/decisions?trackingId=${trackingId}`))).json.items;
    expect(decision).toMatchObject({ decision: "approve", decidedBy: null, status: "Completed", note: null });
  });
});
