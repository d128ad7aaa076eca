import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BULK_RETRY_MAX } from "@/lib/schemas/deliveries";
import { createEmbeddedWorker, type EmbeddedWorker } from "@/server/jobs/embedded-worker";
import { testAttemptOptions, testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithApiKey, expectProblem, restClient, type RestClient, restClientForNewOrg } from "@/test/rest";
import { waitUntil } from "@/test/wait";
import { startReceiver, type Receiver } from "@/test/webhook-receiver";

/*
 * One Retry per delivery, the bulk retry of what a filter selects, and the test event, against a real
 * receiver on 127.0.0.1 that refuses (422, permanent) until it is told to accept.
 */

let t: TestDb;
let call: RestClient;
let other: RestClient;
let receiver: Receiver;
let accepting = false;
let worker: EmbeddedWorker;
let project: { uniqueId: string; campaignId: string };
let hook: string;
const SECRET = "retry-test-secret-0123456789";

const base = () => `/projects/${project.uniqueId}/deliveries`;
const delivery = (id: string) => t.db.delivery.findUniqueOrThrow({ where: { id } });
const settled = (id: string) => waitUntil(() => delivery(id), (d) => d.status !== "Pending", { what: `delivery ${id} settled` });

/** Link, track and reward over REST; the delivery id of its one webhook. */
async function reward(referrer: string, referee: string) {
  await call("POST", `/projects/${project.uniqueId}/users`, { body: { ClientProvidedId: referrer } });
  const link = await call("POST", `/projects/${project.uniqueId}/referrals/link`, { body: { ReferrerId: referrer } });
  const code = new URL(link.json.referralLink).searchParams.get("referralCode");
  const track = await call("POST", `/projects/${project.uniqueId}/referrals/track`, { body: { ReferralCode: code, RefereeId: referee } });
  await call("POST", `/projects/${project.uniqueId}/referrals/reward`, { body: { ReferralTrackingId: track.json.referralTrackingId, EventName: "purchase" } });
  return (await t.db.delivery.findFirstOrThrow({ where: { trackingId: track.json.referralTrackingId, webhookId: hook } })).id;
}

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  other = await restClientForNewOrg(t.db);
  receiver = await startReceiver(() => (accepting ? { status: 200, body: "ok" } : { status: 422, body: "not yet" }));
  worker = createEmbeddedWorker({ db: t.db, pollIntervalMs: 50, attempt: testAttemptOptions() });
  worker.start();
  project = (await call("POST", "/projects", { body: { name: "Retries", referralRedirectLink: "https://app.example.com/join" } })).json;
  hook = (await call("POST", `/projects/${project.uniqueId}/webhooks/${project.campaignId}`, { body: { name: "Billing", url: receiver.url, secret: SECRET } })).json.id;
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await t.drop();
});

describe("POST /projects/{projectId}/deliveries/{deliveryId}/retry", () => {
  it("re-sends a failed delivery with the same delivery id, and it succeeds", async () => {
    accepting = false;
    const id = await reward("ann", "ben");
    expect((await settled(id)).status).toBe("Failed");
    accepting = true;
    const res = await call("POST", `${base()}/${id}/retry`);
    expect(res.status, res.text).toBe(202);
    expect(res.json).toMatchObject({ deliveryId: id, webhookId: hook, status: "Pending" });
    expect(await settled(id)).toMatchObject({ status: "Succeeded", attemptCount: 2, failure: null });
    const sent = receiver.requests.filter((r) => r.headers["x-service-delivery-id"] === id);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    const detail = (await call("GET", `${base()}/${id}`)).json;
    expect(detail.attempts.map((a: { success: boolean }) => a.success)).toEqual([false, true]);
  });

  it("sends a pending delivery now rather than at its scheduled time", async () => {
    accepting = true;
    const id = await reward("ann", "cat");
    await settled(id);
    // Scheduled an hour ahead, as after a retryable failure with a long backoff.
    const later = new Date(Date.now() + 60 * 60_000);
    await t.db.delivery.update({ where: { id }, data: { status: "Pending", nextAttemptAt: later } });
    expect((await call("GET", `${base()}?search=${id}`)).json.items[0]).toMatchObject({ status: "Pending", nextAttemptAt: later.toISOString(), retryable: true });
    expect((await call("POST", `${base()}/${id}/retry`)).status).toBe(202);
    expect(await settled(id)).toMatchObject({ status: "Succeeded", attemptCount: 2 });
  });

  it("refuses a succeeded delivery (409), and another organisation's or an unknown one (404)", async () => {
    accepting = true;
    const id = await reward("ann", "dan");
    expect((await settled(id)).status).toBe("Succeeded");
    expectProblem(await call("POST", `${base()}/${id}/retry`), 409);
    expectProblem(await call("POST", `${base()}/00000000-0000-0000-0000-000000000000/retry`), 404);
    expectProblem(await other("POST", `${base()}/${id}/retry`), 404);
    const theirs = (await other("POST", "/projects", { body: { name: "Theirs", referralRedirectLink: "https://app.example.com/join" } })).json.uniqueId;
    expectProblem(await other("POST", `/projects/${theirs}/deliveries/${id}/retry`), 404);
  });

  it("refuses a delivery whose webhook is disabled until it is enabled again", async () => {
    accepting = false;
    const id = await reward("ann", "eve");
    await settled(id);
    await call("PUT", `/projects/${project.uniqueId}/webhooks/${hook}`, { body: { enabled: false } });
    expectProblem(await call("POST", `${base()}/${id}/retry`), 409);
    await call("PUT", `/projects/${project.uniqueId}/webhooks/${hook}`, { body: { enabled: true } });
    expect((await call("POST", `${base()}/${id}/retry`)).status).toBe(202);
    await settled(id);
  });
});

describe("POST /projects/{projectId}/deliveries/retry", () => {
  it("retries every failed delivery the filter selects, answers the count, and writes one audit entry", async () => {
    accepting = false;
    const ids = [await reward("fay", "gus"), await reward("fay", "hal"), await reward("ivy", "jon")];
    for (const id of ids) expect((await settled(id)).status).toBe("Failed");
    accepting = true;
    const audits = () => t.db.auditEntry.count({ where: { action: "delivery.bulk_retry" } });
    const before = await audits();
    const res = await call("POST", `${base()}/retry`, { body: { search: "fay", status: "Failed" } });
    expect(res.status, res.text).toBe(202);
    expect(res.json).toMatchObject({ count: 2, requestedAt: expect.any(String) });
    expect(await audits()).toBe(before + 1);
    for (const id of ids.slice(0, 2)) expect((await settled(id)).status).toBe("Succeeded");
    expect((await delivery(ids[2]!)).status).toBe("Failed");
    // Nothing left to retry for that filter.
    expect((await call("POST", `${base()}/retry`, { body: { search: "fay", status: "Failed" } })).json.count).toBe(0);
  });

  it(`refuses more than ${BULK_RETRY_MAX} selected deliveries, retrying none`, async () => {
    const crowded = (await call("POST", "/projects", { body: { name: "Crowded", referralRedirectLink: "https://app.example.com/join" } })).json;
    const crowdedHook = (await call("POST", `/projects/${crowded.uniqueId}/webhooks/${crowded.campaignId}`, { body: { name: "Many", url: receiver.url, secret: SECRET } })).json.id;
    await t.db.$executeRaw`
      INSERT INTO "Delivery" ("id", "projectId", "webhookId", "eventName", "payload", "status", "attemptCount", "updatedAt")
      SELECT gen_random_uuid()::text, ${crowded.uniqueId}, ${crowdedHook}, 'referloop.test', '{}'::jsonb, 'Failed', 1, now()
      FROM generate_series(1, ${BULK_RETRY_MAX + 1})`;
    const res = await call("POST", `/projects/${crowded.uniqueId}/deliveries/retry`, { body: { status: "Failed" } });
    expectProblem(res, 400, ["filter"]);
    expect(res.json.detail).toMatch(/narrow the filter/);
    expect(await t.db.delivery.count({ where: { projectId: crowded.uniqueId, status: "Failed" } })).toBe(BULK_RETRY_MAX + 1);
  });

  it("refuses a bad filter naming the field, and another organisation's project", async () => {
    expectProblem(await call("POST", `${base()}/retry`, { body: { from: "2026-11-02T00:00:00Z", to: "2026-11-01T00:00:00Z" } }), 400, ["from"]);
    expectProblem(await call("POST", `${base()}/retry`, { body: { status: "Gone" } }), 400, ["status"]);
    expectProblem(await other("POST", `${base()}/retry`, { body: {} }), 404);
    // A webhook id of another organisation (or none) names nothing here: 404, and nothing is retried.
    const theirs = (await other("POST", "/projects", { body: { name: "Theirs", referralRedirectLink: "https://app.example.com/join" } })).json;
    const theirHook = (await other("POST", `/projects/${theirs.uniqueId}/webhooks/${theirs.campaignId}`, { body: { name: "Theirs", url: receiver.url, secret: SECRET } })).json.id;
    expectProblem(await call("POST", `${base()}/retry`, { body: { webhookId: theirHook } }), 404);
    expectProblem(await call("POST", `${base()}/retry`, { body: { webhookId: "00000000-0000-0000-0000-000000000000" } }), 404);
  });

  it("is limited per organisation per hour", async () => {
    const { apiKey } = await createOrgWithApiKey(t.db);
    const limited = restClient(t.db, apiKey, {});
    const strict = restClient(t.db, apiKey, { config: testConfig({ RATE_LIMIT_BULK_RETRY_PER_HOUR: "2" }) });
    const theirs = (await limited("POST", "/projects", { body: { name: "Limited", referralRedirectLink: "https://app.example.com/join" } })).json.uniqueId;
    expect((await strict("POST", `/projects/${theirs}/deliveries/retry`, { body: {} })).status).toBe(202);
    expect((await strict("POST", `/projects/${theirs}/deliveries/retry`, { body: {} })).status).toBe(202);
    const refused = await strict("POST", `/projects/${theirs}/deliveries/retry`, { body: {} });
    expectProblem(refused, 429);
    expect(refused.headers.get("retry-after")).toEqual(expect.any(String));
  });
});

describe("POST /projects/{projectId}/webhooks/{webhookId}/test", () => {
  it("sends a signed test event, answers its attempt, logs it, and grants nothing", async () => {
    accepting = true;
    const rewards = await t.db.rewardHistory.count();
    const trackingItems = await t.db.referralTracking.count();
    const res = await call("POST", `/projects/${project.uniqueId}/webhooks/${hook}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.delivery).toMatchObject({ event: "referloop.test", test: true, status: "Succeeded", trackingId: null, attempts: 1 });
    expect(res.json.attempts).toHaveLength(1);
    expect(res.json.attempts[0]).toMatchObject({ success: true, response: { status: 200, body: "ok" } });
    expect(res.json.attempts[0].request.headers).toMatchObject({ "X-Service-Test": "true", Authorization: "[redacted]" });
    const received = receiver.requests.at(-1)!;
    expect(received.headers["x-service-test"]).toBe("true");
    expect(received.headers["x-service-delivery-id"]).toBe(res.json.delivery.deliveryId);
    const body = JSON.parse(received.body);
    expect(Object.keys(body)).toEqual(["event", "referrerId", "refereeId", "rewardClaimedAt", "trackingId", "rewardStatus", "projectId", "projectName", "campaignId"]);
    expect(body).toMatchObject({ event: "referloop.test", projectId: project.uniqueId, campaignId: project.campaignId, rewardStatus: "Completed" });
    expect(res.json.attempts[0].request.body).toBe(received.body);
    // In the webhook's log and the search like any attempt; nothing granted, no tracking item touched.
    const logs = (await call("GET", `/projects/${project.uniqueId}/webhooks/${hook}/logs`)).json;
    expect(logs.some((l: { deliveryId: string }) => l.deliveryId === res.json.delivery.deliveryId)).toBe(true);
    expect((await call("GET", `${base()}?event=referloop.test`)).json.totalCount).toBeGreaterThanOrEqual(1);
    expect(await t.db.rewardHistory.count()).toBe(rewards);
    expect(await t.db.referralTracking.count()).toBe(trackingItems);
    // One audit entry, naming the webhook and the delivery it sent.
    const entries = await t.db.auditEntry.findMany({ where: { action: "webhook.test", targetId: hook } });
    expect(entries.filter((e) => (e.details as { deliveryId?: string }).deliveryId === res.json.delivery.deliveryId)).toHaveLength(1);
  });

  it("answers a failed attempt's result without retrying it", async () => {
    accepting = false;
    const res = await call("POST", `/projects/${project.uniqueId}/webhooks/${hook}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.delivery).toMatchObject({ status: "Failed", attempts: 1, lastHttpStatus: 422 });
    expect(res.json.attempts[0]).toMatchObject({ success: false, error: "HTTP 422", response: { status: 422, body: "not yet" } });
  });

  it("answers 404 for another organisation's webhook, and refuses a read-only key", async () => {
    const audited = await t.db.auditEntry.count({ where: { action: "webhook.test" } });
    expectProblem(await other("POST", `/projects/${project.uniqueId}/webhooks/${hook}/test`), 404);
    expectProblem(await call("POST", `/projects/${project.uniqueId}/webhooks/00000000-0000-0000-0000-000000000000/test`), 404);
    const org = await t.db.project.findUniqueOrThrow({ where: { id: project.uniqueId }, select: { organizationId: true } });
    const { createApiKey } = await import("@/server/domain/api-keys/create-api-key");
    const readOnly = restClient(t.db, (await createApiKey(t.db, org.organizationId, { name: "ro", role: "readOnly" }, null)).key);
    expectProblem(await readOnly("POST", `/projects/${project.uniqueId}/webhooks/${hook}/test`), 403);
    expect((await readOnly("GET", `${base()}?event=referloop.test`)).status).toBe(200);
    expect(await t.db.auditEntry.count({ where: { action: "webhook.test" } })).toBe(audited);
  });
});
