import { InngestTestEngine } from "@inngest/test";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { MAX_ATTEMPTS, minBackoffMs } from "@/server/domain/deliveries/retry-policy";
import { testAttemptOptions } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import {
  addWebhook,
  attemptsOf,
    createRewardSetupWithReceiver,
  insertCompletedReward,
    type RewardSetup,
} from "@/test/delivery-fixtures";
import type { Receiver } from "@/test/webhook-receiver";
import { performAttempt } from "@/server/domain/deliveries/perform-attempt";
import { createDeliverRewardFunction } from "./deliver-reward-function";
import { deliveryRequested } from "./inngest-client";

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
  await addWebhook(db, setup, { url: receiver.url });
});
afterEach(async () => {
  await receiver.close();
});

/**
 * Runs the function for one delivery. The test engine cannot sleep, so its sleeps are mocked, each
 * moving the run's clock to the delivery's next attempt (as the durable sleep would); `onSleep` sees
 * the state a sleep starts from. Fresh each run.
 */
async function run(deliveryId: string, onSleep: () => void = () => {}) {
  let clock = new Date();
  const wake = async () => {
    onSleep();
    clock = (await db.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).nextAttemptAt;
    return null;
  };
  const sleeps = Array.from({ length: MAX_ATTEMPTS }, (_, i) => [`backoff-${i + 1}`, `due-${i + 1}-1`]).flat();
  const engine = new InngestTestEngine({
    function: createDeliverRewardFunction({ db: async () => db, attempt: () => ({ ...attempt, timeoutMs: 2_000, now: () => clock }) }),
    events: [{ name: deliveryRequested.name, data: { deliveryId } }],
    steps: sleeps.map((id) => ({ id, handler: wake })),
  });
  return engine.execute();
}

describe("deliver-reward-webhook (Inngest)", () => {
  it("is one step per attempt, with no Inngest retries", () => {
    const fn = createDeliverRewardFunction({ db: async () => db });
    expect(fn.opts).toMatchObject({ id: "deliver-reward-webhook", retries: 0 });
  });

  it("delivers on the first attempt without sleeping", async () => {
    const { deliveryIds } = await insertCompletedReward(db, setup);
    const { result, ctx } = await run(deliveryIds[0]!);
    expect(result).toEqual({ outcome: "succeeded", attemptNumber: 1 });
    expect(ctx.step.sleep).not.toHaveBeenCalled();
    expect(receiver.requests).toHaveLength(1);
  });

  it("sleeps the policy's backoff between attempts: fails twice, then 200", async () => {
    receiver.respondWith((n) => (n <= 2 ? { status: 500 } : { status: 200 }));
    const { deliveryIds } = await insertCompletedReward(db, setup);
    const { result, ctx } = await run(deliveryIds[0]!);
    expect(result).toEqual({ outcome: "succeeded", attemptNumber: 3 });
    const sleeps = ctx.step.sleep.mock.calls as unknown as [string, number][];
    expect(sleeps.map(([id]) => id)).toEqual(["backoff-1", "backoff-2"]);
    sleeps.forEach(([, ms], i) => expect(ms).toBeGreaterThanOrEqual(minBackoffMs(i + 1, attempt.baseMs)));
    expect((await attemptsOf(db, deliveryIds[0]!)).map((a) => a.success)).toEqual([false, false, true]);
    expect(new Set(receiver.requests.map((r) => r.headers["x-service-delivery-id"]))).toEqual(new Set(deliveryIds));
  });

  it("stops after five attempts against a receiver that always fails", async () => {
    receiver.respondWith(() => ({ status: 500 }));
    const { deliveryIds } = await insertCompletedReward(db, setup);
    const { result, ctx } = await run(deliveryIds[0]!);
    expect(result).toEqual({ outcome: "dead", failure: "exhausted", attemptNumber: 5 });
    expect(ctx.step.sleep).toHaveBeenCalledTimes(4);
    expect(receiver.requests).toHaveLength(5);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: deliveryIds[0]! } })).toMatchObject({ status: "Failed", attemptCount: 5 });
  });

  it("dead-letters a 403 after one attempt", async () => {
    receiver.respondWith(() => ({ status: 403 }));
    const { deliveryIds } = await insertCompletedReward(db, setup);
    const { result, ctx } = await run(deliveryIds[0]!);
    expect(result).toEqual({ outcome: "dead", failure: "dead_lettered", attemptNumber: 1 });
    expect(ctx.step.sleep).not.toHaveBeenCalled();
  });

  it("a duplicate event during a backoff sends nothing until the next attempt is due", async () => {
    receiver.respondWith((n) => (n === 1 ? { status: 500 } : { status: 200 }));
    const { deliveryIds } = await insertCompletedReward(db, setup);
    const id = deliveryIds[0]!;
    // A minute's backoff, so the run surely starts inside it however slow the machine; its sleep moves the run's clock past it.
    expect(await performAttempt(db, id, { ...attempt, baseMs: 60_000 })).toMatchObject({ outcome: "retry", attemptNumber: 1 });
    const sentBeforeSleeping: number[] = [];
    const { result, ctx } = await run(id, () => sentBeforeSleeping.push(receiver.requests.length));
    expect(result).toEqual({ outcome: "succeeded", attemptNumber: 2 });
    const sleeps = ctx.step.sleep.mock.calls as unknown as [string, number][];
    expect(sleeps.map(([sleepId]) => sleepId)).toEqual(["due-1-1"]);
    expect(sleeps[0]![1]).toBeGreaterThan(0);
    expect(sentBeforeSleeping).toEqual([1]);
    expect((await attemptsOf(db, id)).map((a) => [a.attemptNumber, a.success])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it("does nothing for a delivery that is no longer Pending (a duplicate event)", async () => {
    const { deliveryIds } = await insertCompletedReward(db, setup);
    await run(deliveryIds[0]!);
    const { result } = await run(deliveryIds[0]!);
    expect(result).toEqual({ outcome: "skipped", reason: "not_pending" });
    expect(receiver.requests).toHaveLength(1);
  });
});
