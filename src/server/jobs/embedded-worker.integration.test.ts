import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openPostgres, type Db } from "@/server/db/client";
import { MAX_ATTEMPTS, minBackoffMs } from "@/server/domain/deliveries/retry-policy";
import { leaseMs, LOST_ATTEMPT_ERROR, performAttempt } from "@/server/domain/deliveries/perform-attempt";
import { retryDeliveryLog } from "@/server/domain/deliveries/retry-delivery-log";
import { claimDueAttempts } from "@/server/domain/deliveries/claim-attempts";
import { attemptsUnderLease } from "@/server/domain/deliveries/outbox";
import { grantReward } from "@/server/domain/referrals/grant-reward";
import { testAttemptOptions } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import {
  addWebhook,
  attemptsOf,
  createRewardSetupWithReceiver,
  insertCompletedReward,
  insertPendingItem,
  settleAllDeliveries,
  type RewardSetup,
} from "@/test/delivery-fixtures";
import { waitUntil } from "@/test/wait";
import type { Receiver } from "@/test/webhook-receiver";
import { createEmbeddedWorker, type EmbeddedWorker } from "./embedded-worker";

let testDb: TestDb;
let db: Db;
let setup: RewardSetup;
let receiver: Receiver;
const workers: EmbeddedWorker[] = [];
const extraClients: Db[] = [];

const attempt = testAttemptOptions();

const webhookIdsEndingIn = async (suffix: string) => (await db.webhook.findMany({ where: { url: { endsWith: suffix } }, select: { id: true } })).map((w) => w.id);

function startWorker(options: { db?: Db; workerId?: string; baseMs?: number } = {}) {
  const worker = createEmbeddedWorker({
    db: options.db ?? db,
    workerId: options.workerId,
    pollIntervalMs: 50,
    // Few slots, so that two workers racing over a couple of dozen deliveries both get some.
    concurrency: 8,
    attempt: { ...attempt, timeoutMs: 2_000, baseMs: options.baseMs ?? attempt.baseMs },
  });
  worker.start();
  workers.push(worker);
  return worker;
}

/** A second connection pool to the same database, like another app instance (PGlite has only one). */
function anotherInstance(): Db {
  if (!testDb.url) return db;
  const client = openPostgres(testDb.url);
  extraClients.push(client);
  return client;
}

/** The deliveries of n Completed rewards, one per webhook of the setup each. */
async function insertDeliveries(n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(...(await insertCompletedReward(db, setup)).deliveryIds);
  return ids;
}

/** Until every delivery has the status. */
const waitForStatus = (deliveryIds: string[], status: "Succeeded" | "Failed", timeoutMs = 5_000) =>
  waitUntil(
    () => db.delivery.count({ where: { id: { in: deliveryIds }, status } }),
    (done) => done === deliveryIds.length,
    { timeoutMs, what: `${deliveryIds.length} deliveries ${status}` },
  );

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterAll(async () => {
  await Promise.all(extraClients.map((c) => c.$disconnect()));
  await testDb.drop();
});
beforeEach(async () => {
  ({ setup, receiver } = await createRewardSetupWithReceiver(db));
});
afterEach(async () => {
  // Receiver first: closing it cuts any hanging request, so stopping the workers need not wait for it.
  await receiver.close();
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await settleAllDeliveries(db);
});

describe("embedded worker", () => {
  it("retries a receiver that fails twice, waiting at least the policy's backoff between attempts", async () => {
    await addWebhook(db, setup, { url: receiver.url });
    receiver.respondWith((n) => (n <= 2 ? { status: 503 } : { status: 200 }));
    startWorker();
    const { deliveryIds } = await insertCompletedReward(db, setup);
    await waitForStatus(deliveryIds, "Succeeded");

    const times = receiver.requests.map((r) => r.at);
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(minBackoffMs(1, attempt.baseMs));
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(minBackoffMs(2, attempt.baseMs));
    expect((await attemptsOf(db, deliveryIds[0]!)).map((a) => a.success)).toEqual([false, false, true]);
  });

  it("gives up after exactly five attempts against a receiver that always fails", async () => {
    await addWebhook(db, setup, { url: receiver.url });
    receiver.respondWith(() => ({ status: 500 }));
    startWorker();
    const { deliveryIds } = await insertCompletedReward(db, setup);
    await waitForStatus(deliveryIds, "Failed");
    // Give a wrongly scheduled sixth attempt the chance to show up.
    await new Promise((r) => setTimeout(r, minBackoffMs(MAX_ATTEMPTS, attempt.baseMs) * 2));
    expect(receiver.requests).toHaveLength(MAX_ATTEMPTS);
    expect((await attemptsOf(db, deliveryIds[0]!)).map((a) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5]);
  });

  it("never sends one attempt twice when two workers race over the same due deliveries", async () => {
    await addWebhook(db, setup, { url: receiver.url });
    // Slow answers keep both workers busy at the same time.
    receiver.respondWith(() => ({ status: 200, delayMs: 60 }));
    const ids = (await Promise.all(Array.from({ length: 24 }, () => insertCompletedReward(db, setup)))).flatMap((g) => g.deliveryIds);
    startWorker({ workerId: "racer-a" });
    startWorker({ db: anotherInstance(), workerId: "racer-b" });
    const leaseHolders = new Set<string>();
    while ((await db.delivery.count({ where: { id: { in: ids }, status: "Succeeded" } })) < ids.length) {
      const leased = await db.delivery.findMany({ where: { id: { in: ids }, leasedBy: { not: null } }, select: { leasedBy: true } });
      leased.forEach((d) => leaseHolders.add(d.leasedBy!));
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(leaseHolders).toEqual(new Set(["racer-a", "racer-b"]));

    const sent = receiver.requests.map((r) => r.headers["x-service-delivery-id"]);
    expect(sent).toHaveLength(ids.length);
    expect(new Set(sent)).toEqual(new Set(ids));
    expect(await db.deliveryAttempt.count({ where: { deliveryId: { in: ids } } })).toBe(ids.length);
  });

  it("takes over a delivery whose worker died holding the lease, once the lease expires", async () => {
    await addWebhook(db, setup, { url: receiver.url });
    const { deliveryIds } = await insertCompletedReward(db, setup);
    const leaseEnds = Date.now() + 1_000;
    // The dead worker had claimed attempt 1 and never recorded it.
    await db.delivery.update({
      where: { id: deliveryIds[0]! },
      data: { attemptCount: 1, leasedBy: "dead-worker", leasedUntil: new Date(leaseEnds) },
    });
    startWorker();
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests).toHaveLength(0);

    await waitForStatus(deliveryIds, "Succeeded");
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.at).toBeGreaterThanOrEqual(leaseEnds);
    const attempts = await attemptsOf(db, deliveryIds[0]!);
    expect(attempts.map((a) => [a.attemptNumber, a.success])).toEqual([
      [1, false],
      [2, true],
    ]);
    // Support staff see the attempt the dead worker could not record.
    expect(attempts[0]!.error).toBe(LOST_ATTEMPT_ERROR);
  });

  it("delivers, after a restart, what a stopped worker left Pending, with the same delivery ids", async () => {
    await addWebhook(db, setup, { url: receiver.url });
    receiver.respondWith(() => ({ status: 502 }));
    // Written while no worker runs at all.
    const ids = (await Promise.all([1, 2, 3].map(() => insertCompletedReward(db, setup)))).flatMap((g) => g.deliveryIds);
    // Retries far off, so the first worker cannot send one before it stops, however slow the machine.
    const first = startWorker({ workerId: "before-restart", baseMs: 600_000 });
    await receiver.waitForRequests(3);
    await first.stop();
    expect(await db.delivery.count({ where: { id: { in: ids }, status: "Pending", leasedBy: null } })).toBe(3);
    // The downtime lasted until the retries fell due.
    await db.delivery.updateMany({ where: { id: { in: ids } }, data: { nextAttemptAt: new Date() } });

    receiver.respondWith(() => ({ status: 200 }));
    startWorker({ db: anotherInstance(), workerId: "after-restart" });
    await waitForStatus(ids, "Succeeded");
    const byDelivery = new Map<string, number>();
    for (const r of receiver.requests) {
      const id = r.headers["x-service-delivery-id"] as string;
      byDelivery.set(id, (byDelivery.get(id) ?? 0) + 1);
    }
    expect([...byDelivery.keys()].sort()).toEqual([...ids].sort());
    expect([...byDelivery.values()]).toEqual([2, 2, 2]);
  });

  it("keeps delivering to other receivers while one hangs", async () => {
    await addWebhook(db, setup, { url: receiver.origin + "/slow" });
    await addWebhook(db, setup, { url: receiver.origin + "/fast" });
    receiver.respondWith((_, request) => (request.path === "/slow" ? "hang" : { status: 200 }));
    const worker = createEmbeddedWorker({ db, pollIntervalMs: 50, attempt: { ...attempt, timeoutMs: 5_000 } });
    workers.push(worker);
    worker.start();
    const { deliveryIds } = await insertCompletedReward(db, setup);
    const fast = await db.delivery.findFirstOrThrow({ where: { id: { in: deliveryIds }, webhookId: { in: await webhookIdsEndingIn("/fast") } } });
    await waitForStatus([fast.id], "Succeeded", 4_000);
    // The slow attempt is still in flight: claimed, not yet logged.
    const slow = await db.delivery.findFirstOrThrow({ where: { id: { in: deliveryIds }, NOT: { id: fast.id } } });
    expect(slow.attemptCount).toBe(1);
    expect(await attemptsOf(db, slow.id)).toHaveLength(0);
  });

  it("gives one webhook at most its share of the slots: a hanging receiver's queue does not hold up the others", async () => {
    await addWebhook(db, setup, { url: receiver.origin + "/slow" });
    receiver.respondWith((_, request) => (request.path === "/slow" ? "hang" : { status: 200 }));
    // The slow webhook's six deliveries are older, so they come first in due order.
    const slow: string[] = [];
    for (let i = 0; i < 6; i++) slow.push(...(await insertCompletedReward(db, setup)).deliveryIds);
    await db.delivery.updateMany({ where: { id: { in: slow } }, data: { nextAttemptAt: new Date(Date.now() - 60_000) } });
    await addWebhook(db, setup, { url: receiver.origin + "/fast" });
    const worker = createEmbeddedWorker({ db, pollIntervalMs: 50, concurrency: 4, perWebhookConcurrency: 2, attempt: { ...attempt, timeoutMs: 5_000 } });
    workers.push(worker);
    worker.start();
    const fast: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { deliveryIds } = await insertCompletedReward(db, setup);
      fast.push(...deliveryIds.filter((id) => !slow.includes(id)));
    }
    const fastIds = (await db.delivery.findMany({ where: { id: { in: fast }, webhookId: { in: await webhookIdsEndingIn("/fast") } } })).map((d) => d.id);
    expect(fastIds).toHaveLength(3);
    await waitForStatus(fastIds, "Succeeded", 4_000);
    // Two slow attempts hang in their slots; the other four slow deliveries were never taken.
    expect(receiver.requests.filter((r) => r.path === "/slow")).toHaveLength(2);
    expect(await db.delivery.count({ where: { id: { in: slow }, attemptCount: 0 } })).toBe(4);
  });

  it("wakes at once on enqueue instead of waiting for the poll", async () => {
    await addWebhook(db, setup, { url: receiver.url });
    const worker = createEmbeddedWorker({ db, pollIntervalMs: 60_000, attempt });
    worker.start();
    workers.push(worker);
    await new Promise((r) => setTimeout(r, 100));
    const { deliveryIds } = await insertCompletedReward(db, setup);
    const enqueuedAt = Date.now();
    worker.wake();
    await waitForStatus(deliveryIds, "Succeeded", 2_000);
    expect(receiver.requests[0]!.at - enqueuedAt).toBeLessThan(1_000);
  });

  // Polling once a minute: only the worker's own wake-ups can send these within the waits below.
  it("sends its own retry when due, without waiting for the poll", async () => {
    await addWebhook(db, setup, { url: receiver.url });
    receiver.respondWith((n) => ({ status: n === 1 ? 503 : 200 }));
    const worker = createEmbeddedWorker({ db, pollIntervalMs: 60_000, attempt: { ...attempt, baseMs: 100 } });
    worker.start();
    workers.push(worker);
    const { deliveryIds } = await insertCompletedReward(db, setup);
    worker.wake();
    await waitForStatus(deliveryIds, "Succeeded", 3_000);
    expect((await attemptsOf(db, deliveryIds[0]!)).map((a) => a.success)).toEqual([false, true]);
  });

  it.for([
    { slots: "every slot", concurrency: 1, perWebhookConcurrency: 8 },
    { slots: "the webhook's share", concurrency: 8, perWebhookConcurrency: 1 },
  ])("claims the next due delivery as soon as an attempt frees $slots", async ({ concurrency, perWebhookConcurrency }) => {
    await addWebhook(db, setup, { url: receiver.url });
    receiver.respondWith(() => ({ status: 200, delayMs: 50 }));
    const worker = createEmbeddedWorker({ db, pollIntervalMs: 60_000, concurrency, perWebhookConcurrency, attempt });
    worker.start();
    workers.push(worker);
    const ids = (await Promise.all([1, 2, 3].map(() => insertCompletedReward(db, setup)))).flatMap((r) => r.deliveryIds);
    worker.wake();
    await waitForStatus(ids, "Succeeded", 3_000);
    expect(Math.max(...receiver.requests.map((r) => r.at)) - Math.min(...receiver.requests.map((r) => r.at))).toBeGreaterThanOrEqual(2 * 50 - 5);
  });
  // Attempts answered together are recorded in one batch, so they finish together, some of them while
  // the claim for the first one's slot runs: those must still have their slots filled, not wait a poll.
  it("keeps a webhook's share busy through a backlog, not one share per poll", async () => {
    await addWebhook(db, setup, { url: receiver.url });
    receiver.respondWith(() => ({ status: 200, delayMs: 30 }));
    const ids = await insertDeliveries(60);
    const worker = createEmbeddedWorker({ db, pollIntervalMs: 60_000, concurrency: 8, perWebhookConcurrency: 4, attempt });
    workers.push(worker);
    worker.start();
    // 15 rounds of 4 at 30 ms each; a share emptying until the poll would take a minute.
    await waitForStatus(ids, "Succeeded", 5_000);
  });
  /** Keeps another connection's lock on the attempt log, so that no result can be written until unlock(). */
  async function lockAttemptLog() {
    let unlock!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const held = anotherInstance().$transaction(
      async (tx) => {
        await tx.$executeRaw`LOCK TABLE "DeliveryAttempt" IN EXCLUSIVE MODE`;
        locked();
        await new Promise<void>((resolve) => (unlock = resolve));
      },
      { timeout: 30_000 },
    );
    await isLocked;
    return async () => {
      unlock();
      await held;
    };
  }

  it("frees a slot when its receiver answers, not once the result is recorded", async ({ skip }) => {
    if (!testDb.url) skip("holding a lock from a second connection needs PostgreSQL");
    await addWebhook(db, setup, { url: receiver.url });
    const ids = await insertDeliveries(6);
    const unlock = await lockAttemptLog();
    try {
      const worker = createEmbeddedWorker({ db, pollIntervalMs: 60_000, concurrency: 4, perWebhookConcurrency: 2, attempt });
      workers.push(worker);
      worker.start();
      // Two slots, six deliveries, no result recorded: each answer lets the next one go.
      await receiver.waitForRequests(6);
      // The sixth request has arrived; the worker frees its slot once its answer is read, which on a
      // busy machine can come after the receiver saw the request (a plain check failed at load 8).
      await expect.poll(() => worker.lease(), { timeout: 10_000 }).not.toBeNull();
    } finally {
      await unlock();
    }
    await waitForStatus(ids, "Succeeded");
    expect(receiver.requests).toHaveLength(6);
  });

  it("stops sending while results it cannot record pile up (16 per slot), and goes on once they are written", async ({ skip }) => {
    if (!testDb.url) skip("holding a lock from a second connection needs PostgreSQL");
    await addWebhook(db, setup, { url: receiver.url });
    const ids = await insertDeliveries(20);
    const unlock = await lockAttemptLog();
    try {
      // Polling once a minute: only the worker's own wake-ups can send the rest within the waits below.
      const worker = createEmbeddedWorker({ db, pollIntervalMs: 60_000, concurrency: 1, attempt });
      workers.push(worker);
      worker.start();
      await receiver.waitForRequests(16);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.requests).toHaveLength(16);
      expect(worker.lease()).toBeNull();
    } finally {
      await unlock();
    }
    await waitForStatus(ids, "Succeeded");
    expect(receiver.requests).toHaveLength(20);
  });
});

describe("first attempts claimed with the reward (a worker's lease)", () => {
  const grant = (lease: ReturnType<EmbeddedWorker["lease"]>) =>
    insertPendingItem(db, setup)
      .then((item) => grantReward(db, setup.org.id, setup.project.id, { referralTrackingId: item.id }, lease))
      .then(({ written }) => ({ deliveryIds: written!.deliveries.map((d) => d.id), leased: attemptsUnderLease(written!), written: written! }));

  it("writes the deliveries already claimed for the lease's worker, which sends them without a claim of its own", async () => {
    await addWebhook(db, setup, { url: receiver.url });
    // Polling once a minute and never woken: only take() can send within the wait below.
    const worker = createEmbeddedWorker({ db, pollIntervalMs: 60_000, attempt });
    worker.start();
    workers.push(worker);
    const lease = worker.lease()!;
    expect(lease.workerId).toBe(worker.id);
    // As long as a claim's lease: the attempt's budget and a margin.
    expect(lease.until.getTime()).toBeGreaterThan(Date.now() + leaseMs(attempt) - 1_000);

    const result = await grant(lease);
    const [id] = result.deliveryIds;
    expect(result.leased).toMatchObject([{ id, attemptNumber: 1, webhook: { url: receiver.url, enabled: true }, payload: { trackingId: result.written.payload.trackingId } }]);
    expect(await db.delivery.findUniqueOrThrow({ where: { id } })).toMatchObject({ attemptCount: 1, leasedBy: worker.id, status: "Pending" });
    // No other worker can claim it meanwhile.
    const other = await claimDueAttempts(db, { workerId: "other", limit: 10, leaseMs: 60_000, dueBefore: new Date(), perWebhook: 10, inFlight: new Map() });
    expect(other.map((a) => a.id)).not.toContain(id);

    worker.take(result.leased);
    await waitForStatus([id!], "Succeeded", 2_000);
    expect(receiver.requests.map((r) => r.headers["x-service-delivery-id"])).toEqual([id]);
    expect((await attemptsOf(db, id!)).map((a) => [a.attemptNumber, a.success])).toEqual([[1, true]]);
  });

  it("lends no lease while in flight holds one webhook's share, nor once stopped: those rows are claimed as usual", async () => {
    await addWebhook(db, setup, { url: receiver.origin + "/slow" });
    receiver.respondWith(() => "hang");
    const worker = createEmbeddedWorker({ db, pollIntervalMs: 50, concurrency: 4, perWebhookConcurrency: 2, attempt: { ...attempt, timeoutMs: 5_000 } });
    workers.push(worker);
    expect(worker.lease()).toBeNull(); // not started
    worker.start();
    expect(worker.lease()).not.toBeNull();
    await grant(worker.lease()).then((r) => worker.take(r.leased));
    await receiver.waitForRequests(1);
    expect(worker.lease()).not.toBeNull();
    await grant(worker.lease()).then((r) => worker.take(r.leased));
    await receiver.waitForRequests(2);
    // Two hang: a third delivery, even to another webhook, would take a slot beyond one webhook's share.
    expect(worker.lease()).toBeNull();
    const unleased = await grant(worker.lease());
    expect(unleased.leased).toEqual([]);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: unleased.deliveryIds[0]! } })).toMatchObject({ attemptCount: 0, leasedBy: null });
    await receiver.close();
    await worker.stop();
    expect(worker.lease()).toBeNull();
  });

  it("hands back on stop the rows it holds unsent, as the attempt they were claimed for, and sends nothing handed to it after", async () => {
    await addWebhook(db, setup, { url: receiver.url });
    const worker = startWorker();
    const result = await grant(worker.lease());
    expect(result.leased).toHaveLength(1);
    await worker.stop();
    worker.take(result.leased);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.requests).toHaveLength(0);
    const [id] = result.deliveryIds;
    expect(await db.delivery.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "Pending", attemptCount: 0, leasedBy: null, leasedUntil: null });
    // The next worker sends it as attempt 1, with no attempt logged lost.
    const next = startWorker();
    await waitForStatus([id!], "Succeeded");
    await next.stop();
    expect((await attemptsOf(db, id!)).map((a) => [a.attemptNumber, a.success])).toEqual([[1, true]]);
  });

  it("a lease whose worker died before sending runs out, and another worker sends the delivery, logging attempt 1 as lost", async () => {
    await addWebhook(db, setup, { url: receiver.url });
    const leaseEnds = Date.now() + 1_000;
    const { deliveryIds } = await grant({ workerId: "dead-worker", until: new Date(leaseEnds) });
    startWorker();
    await waitForStatus(deliveryIds, "Succeeded");
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.at).toBeGreaterThanOrEqual(leaseEnds);
    const attempts = await attemptsOf(db, deliveryIds[0]!);
    expect(attempts.map((a) => [a.attemptNumber, a.success, a.error])).toEqual([
      [1, false, LOST_ATTEMPT_ERROR],
      [2, true, null],
    ]);
  });
});

describe("manual retry through the worker", () => {
  it("re-sends a dead-lettered delivery with the same id and payload, logging a new attempt; 409 once it succeeded", async () => {
    const webhook = await addWebhook(db, setup, { url: receiver.url });
    receiver.respondWith(() => ({ status: 401 }));
    const worker = startWorker();
    const { deliveryIds } = await insertCompletedReward(db, setup);
    const deliveryId = deliveryIds[0]!;
    await waitForStatus(deliveryIds, "Failed");
    const [failed] = await attemptsOf(db, deliveryId);

    receiver.respondWith(() => ({ status: 200 }));
    const result = await retryDeliveryLog(db, setup.org.id, setup.project.id, failed!.id, true);
    expect(result).toMatchObject({ deliveryId, webhookId: webhook.id, status: "Pending" });
    worker.wake();
    await waitForStatus(deliveryIds, "Succeeded");

    const [first, second] = receiver.requests;
    expect(second!.headers["x-service-delivery-id"]).toBe(deliveryId);
    expect(second!.body).toBe(first!.body);
    const logs = await attemptsOf(db, deliveryId);
    expect(logs.map((l) => [l.attemptNumber, l.success])).toEqual([
      [1, false],
      [2, true],
    ]);

    for (const log of logs) {
      await expect(retryDeliveryLog(db, setup.org.id, setup.project.id, log.id, true)).rejects.toMatchObject({
        kind: "conflict",
      });
    }
    expect(receiver.requests).toHaveLength(2);
  });

  it("refuses to retry a delivery that is still being retried automatically, or whose webhook is disabled", async () => {
    const webhook = await addWebhook(db, setup, { url: receiver.url });
    receiver.respondWith(() => ({ status: 500 }));
    const { deliveryIds } = await insertCompletedReward(db, setup);
    await performAttempt(db, deliveryIds[0]!, attempt);
    const [entry] = await attemptsOf(db, deliveryIds[0]!);
    const retry = () => retryDeliveryLog(db, setup.org.id, setup.project.id, entry!.id, true);
    await expect(retry()).rejects.toMatchObject({ kind: "conflict", message: expect.stringContaining("already scheduled") });

    await db.delivery.update({ where: { id: deliveryIds[0]! }, data: { status: "Failed" } });
    await db.webhook.update({ where: { id: webhook.id }, data: { enabled: false } });
    await expect(retry()).rejects.toMatchObject({ kind: "conflict", message: expect.stringContaining("disabled") });
    expect(await db.delivery.findUniqueOrThrow({ where: { id: deliveryIds[0]! } })).toMatchObject({ status: "Failed" });
  });
});
