import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import {
  addWebhook,
  attemptsOf,
    createRewardSetupWithReceiver,
  insertCompletedReward,
    type RewardSetup,
} from "@/test/delivery-fixtures";
import { guardedConfig, testAttemptOptions, testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { startReceiver, type Receiver } from "@/test/webhook-receiver";
import { updateWebhook } from "@/server/domain/webhooks/update-webhook";
import { METADATA_TARGET_MESSAGE, NON_PUBLIC_TARGET_MESSAGE } from "@/server/domain/webhooks/webhook-url";
import { DEFAULT_ATTEMPT_TIMEOUT_MS, performAttempt, WEBHOOK_DISABLED_ERROR } from "./perform-attempt";
import { RESPONSE_EXCERPT_BYTES } from "./post-webhook";

let testDb: TestDb;
let db: Db;
let setup: RewardSetup;
let receiver: Receiver;
const attempt = testAttemptOptions();

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterAll(() => testDb.drop());
beforeEach(async () => {
  ({ setup, receiver } = await createRewardSetupWithReceiver(db));
});
afterEach(async () => {
  await receiver.close();
});

/** One webhook, one reward: the single delivery id. */
async function oneDelivery(secret?: string) {
  const webhook = await addWebhook(db, setup, { url: receiver.url, ...(secret ? { secret } : {}) });
  const { deliveryIds, payload } = await insertCompletedReward(db, setup);
  expect(deliveryIds).toHaveLength(1);
  return { webhook, deliveryId: deliveryIds[0]!, payload };
}

describe("performAttempt", () => {
  it("delivers on the first try: spec body, signed headers, logged, Succeeded", async () => {
    const secret = "receiver-secret-abcdef123456";
    const { webhook, deliveryId, payload } = await oneDelivery(secret);
    receiver.respondWith(() => ({ status: 200, body: "ok thanks" }));

    expect(await performAttempt(db, deliveryId, attempt)).toEqual({ outcome: "succeeded", attemptNumber: 1 });

    const [request] = receiver.requests;
    expect(JSON.parse(request!.body)).toEqual(payload);
    expect(Object.keys(JSON.parse(request!.body))).toEqual([
      "event", "referrerId", "refereeId", "rewardClaimedAt", "trackingId", "rewardStatus", "projectId", "projectName", "campaignId",
    ]);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers.authorization).toBe(`Bearer ${secret}`);
    expect(request!.headers["x-service-delivery-id"]).toBe(deliveryId);
    expect(request!.headers["x-service-signature"]).toBe(request!.headers["webhook-signature"]);
    const verified = new Webhook(new TextEncoder().encode(secret), { format: "raw" }).verify(
      request!.body,
      request!.headers as Record<string, string>,
    );
    expect(verified).toEqual(payload);

    const [log] = await attemptsOf(db, deliveryId);
    expect(log).toMatchObject({
      attemptNumber: 1,
      eventType: "purchase",
      httpStatus: 200,
      success: true,
      error: null,
      responseExcerpt: "ok thanks",
      webhookId: webhook.id,
    });
    expect(log!.responseTimeMs).toBeGreaterThanOrEqual(0);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({
      status: "Succeeded",
      attemptCount: 1,
      leasedBy: null,
      leasedUntil: null,
    });
  });

  it("dead-letters a 401 after one attempt", async () => {
    const { deliveryId } = await oneDelivery();
    receiver.respondWith(() => ({ status: 401 }));
    expect(await performAttempt(db, deliveryId, attempt)).toEqual({ outcome: "dead", failure: "dead_lettered", attemptNumber: 1 });
    expect(await performAttempt(db, deliveryId, attempt)).toEqual({ outcome: "skipped", reason: "not_pending" });
    expect(receiver.requests).toHaveLength(1);
    expect(await attemptsOf(db, deliveryId)).toMatchObject([{ httpStatus: 401, success: false, error: "HTTP 401" }]);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: "Failed", lastError: "HTTP 401" });
  });

  it("does not follow a redirect and dead-letters it", async () => {
    const { deliveryId } = await oneDelivery();
    receiver.respondWith((n) => (n === 1 ? { status: 307, headers: { Location: `${receiver.origin}/elsewhere` } } : { status: 200 }));
    expect(await performAttempt(db, deliveryId, attempt)).toEqual({ outcome: "dead", failure: "dead_lettered", attemptNumber: 1 });
    expect(receiver.requests.map((r) => r.path)).toEqual(["/hook"]);
    const [log] = await attemptsOf(db, deliveryId);
    expect(log!.error).toContain(`${receiver.origin}/elsewhere`);
  });

  it("cuts a hanging receiver at the budget and schedules a retry", async () => {
    expect(DEFAULT_ATTEMPT_TIMEOUT_MS).toBe(10_000);
    const { deliveryId } = await oneDelivery();
    receiver.respondWith(() => "hang");
    const started = Date.now();
    const result = await performAttempt(db, deliveryId, { ...attempt, timeoutMs: 300 });
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ outcome: "retry", attemptNumber: 1 });
    // Node's timers count from the event loop's clock, read once per turn: on a busy machine a 300 ms
    // budget can end a few tens of ms short of 300 ms on the wall clock (288 ms in one CI run).
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3_000);
    const [log] = await attemptsOf(db, deliveryId);
    expect(log).toMatchObject({ httpStatus: null, success: false, error: "No complete response within 300 ms." });
    expect(log!.responseTimeMs).toBeGreaterThanOrEqual(250);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: "Pending" });
  });

  it("retries a 429, honouring Retry-After, then succeeds with the same delivery id", async () => {
    const { deliveryId } = await oneDelivery();
    receiver.respondWith((n) => (n === 1 ? { status: 429, headers: { "Retry-After": "2" } } : { status: 204 }));
    const first = await performAttempt(db, deliveryId, attempt);
    expect(first).toMatchObject({ outcome: "retry", attemptNumber: 1 });
    if (first.outcome !== "retry") throw new Error("unreachable");
    expect(first.delayMs).toBeGreaterThanOrEqual(2_000);
    const row = await db.delivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row.nextAttemptAt.getTime()).toBe(first.nextAttemptAt.getTime());

    // Asked again before it is due (a duplicate event during the backoff): nothing is sent, and the
    // caller learns how long to wait.
    const early = await performAttempt(db, deliveryId, attempt);
    expect(early).toMatchObject({ outcome: "skipped", reason: "not_due" });
    if (!("delayMs" in early)) throw new Error("unreachable");
    expect(early.delayMs).toBeGreaterThan(0);
    expect(early.delayMs).toBeLessThanOrEqual(first.delayMs);
    expect(receiver.requests).toHaveLength(1);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ attemptCount: 1, leasedBy: null });

    const due = { ...attempt, now: () => first.nextAttemptAt };
    expect(await performAttempt(db, deliveryId, due)).toEqual({ outcome: "succeeded", attemptNumber: 2 });
    expect(receiver.requests.map((r) => r.headers["x-service-delivery-id"])).toEqual([deliveryId, deliveryId]);
    expect((await attemptsOf(db, deliveryId)).map((a) => [a.attemptNumber, a.httpStatus, a.success])).toEqual([
      [1, 429, false],
      [2, 204, true],
    ]);
  });

  it("logs a network error and retries", async () => {
    const { deliveryId } = await oneDelivery();
    await receiver.close();
    const result = await performAttempt(db, deliveryId, attempt);
    expect(result).toMatchObject({ outcome: "retry" });
    const [log] = await attemptsOf(db, deliveryId);
    expect(log!.error).toContain("ECONNREFUSED");
    receiver = await startReceiver();
  });

  it("keeps only a capped excerpt of a large response", async () => {
    const { deliveryId } = await oneDelivery();
    receiver.respondWith(() => ({ status: 500, body: "x".repeat(100_000) }));
    await performAttempt(db, deliveryId, attempt);
    const [log] = await attemptsOf(db, deliveryId);
    expect(log!.responseExcerpt).toHaveLength(RESPONSE_EXCERPT_BYTES);
  });

  it("records a response body holding NUL bytes (PostgreSQL text cannot store them)", async () => {
    const { deliveryId } = await oneDelivery();
    receiver.respondWith(() => ({ status: 200, body: "ok\u0000done" }));
    expect(await performAttempt(db, deliveryId, attempt)).toEqual({ outcome: "succeeded", attemptNumber: 1 });
    expect((await attemptsOf(db, deliveryId))[0]!.responseExcerpt).toBe("okdone");
  });

  it("sends one attempt once, however many callers race for it", async () => {
    const { deliveryId } = await oneDelivery();
    receiver.respondWith(() => ({ status: 500 }));
    // A minute's backoff, so no caller, however late on a slow machine, finds attempt 2 already due.
    const slow = { ...attempt, baseMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 5 }, () => performAttempt(db, deliveryId, slow)));
    expect(results.filter((r) => r.outcome === "retry")).toHaveLength(1);
    // Each loser either lost the race for the lease or read the delivery once the winner had scheduled attempt 2.
    expect(results.filter((r) => r.outcome === "skipped" && ["claimed_elsewhere", "not_due"].includes(r.reason))).toHaveLength(4);
    expect(receiver.requests).toHaveLength(1);
  });

  it("sends nothing for a webhook disabled after the reward; logs why and dead-letters it", async () => {
    const { webhook, deliveryId } = await oneDelivery();
    await updateWebhook(db, setup.org.id, setup.project.id, webhook.id, { enabled: false }, testConfig().urlRules);
    expect(await performAttempt(db, deliveryId, attempt)).toEqual({ outcome: "dead", failure: "dead_lettered", attemptNumber: 1 });
    expect(receiver.requests).toHaveLength(0);
    expect(await attemptsOf(db, deliveryId)).toMatchObject([{ success: false, httpStatus: null, error: WEBHOOK_DISABLED_ERROR }]);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: "Failed" });
  });

  it("skips a delivery whose webhook was deleted", async () => {
    const { webhook, deliveryId } = await oneDelivery();
    // The webhook's row alone, as when a claim wrote the delivery while the webhook was being deleted.
    await db.webhook.delete({ where: { id: webhook.id } });
    expect(await performAttempt(db, deliveryId, attempt)).toEqual({ outcome: "skipped", reason: "not_found" });
    expect(receiver.requests).toHaveLength(0);
  });

  it("refuses at send time, by default, a target that became private or is not https", async () => {
    const loopbackHttps = await addWebhook(db, setup, { url: receiver.url.replace("http:", "https:") });
    const plainHttp = await addWebhook(db, setup, { url: receiver.url });
    const named = await addWebhook(db, setup, { url: receiver.url.replace("http://127.0.0.1", "https://localhost") });
    const { deliveryIds } = await insertCompletedReward(db, setup);
    const inProduction = { ...attempt, urlRules: guardedConfig().urlRules };
    for (const id of deliveryIds) expect(await performAttempt(db, id, inProduction)).toMatchObject({ outcome: "dead" });
    expect(receiver.requests).toHaveLength(0);
    const errors = await db.deliveryAttempt.findMany({ where: { deliveryId: { in: deliveryIds } } });
    const byWebhook = Object.fromEntries(errors.map((e) => [e.webhookId, e.error]));
    expect(byWebhook[loopbackHttps.id]).toBe(NON_PUBLIC_TARGET_MESSAGE);
    expect(byWebhook[plainHttp.id]).toMatch(/https/);
    expect(byWebhook[named.id]).toBe(NON_PUBLIC_TARGET_MESSAGE);
  });

  it("refuses at send time a metadata or link-local target stored earlier, even where private targets are allowed", async () => {
    const metadata = await addWebhook(db, setup, { url: receiver.url });
    // Stored before the rule existed: creation refuses it now.
    await db.webhook.update({ where: { id: metadata.id }, data: { url: "http://169.254.169.254/latest/meta-data/" } });
    const { deliveryIds } = await insertCompletedReward(db, setup);
    expect(deliveryIds).toHaveLength(1);
    const id = deliveryIds[0]!;
    expect(await performAttempt(db, id, attempt)).toMatchObject({ outcome: "dead" });
    const logged = await db.deliveryAttempt.findFirstOrThrow({ where: { deliveryId: id } });
    expect(logged.error).toBe(METADATA_TARGET_MESSAGE);
  });
});

describe("environment routing (insertRewardDeliveries)", () => {
  it("sends Sandbox to Sandbox+Both, Production to Production+Both, none to all enabled once", async () => {
    const paths = { Sandbox: "/sandbox", Production: "/production", Both: "/both" } as const;
    for (const [environment, path] of Object.entries(paths)) {
      await addWebhook(db, setup, { url: receiver.origin + path, environment: environment as keyof typeof paths });
    }
    await addWebhook(db, setup, { url: receiver.origin + "/disabled", enabled: false });

    const sentPaths = async (environment: "Sandbox" | "Production" | null) => {
      const before = receiver.requests.length;
      const { deliveryIds } = await insertCompletedReward(db, setup, environment);
      for (const id of deliveryIds) await performAttempt(db, id, attempt);
      return receiver.requests.slice(before).map((r) => r.path).sort();
    };
    expect(await sentPaths("Sandbox")).toEqual(["/both", "/sandbox"]);
    expect(await sentPaths("Production")).toEqual(["/both", "/production"]);
    expect(await sentPaths(null)).toEqual(["/both", "/production", "/sandbox"]);
    expect(receiver.requests.some((r) => r.path === "/disabled")).toBe(false);
  });
});
