import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import { addWebhook, createRewardSetup, insertCompletedReward } from "@/test/delivery-fixtures";
import { waitUntil } from "@/test/wait";
import { startReceiver, type Receiver } from "@/test/webhook-receiver";

/*
 * Durability across a real process death: deliveries are committed rows, so a worker process killed
 * with SIGKILL (no chance to clean up) loses nothing; a new process delivers all of it.
 */
let t: TestDb;
let receiver: Receiver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await createTestDb();
  receiver = await startReceiver(() => ({ status: 503 }));
});
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await receiver.close();
  await t.drop();
});

function startWorkerProcess() {
  // node itself, not npx: SIGKILL must hit the worker, not a wrapper that would leave it running.
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: t.url!,
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      REFERLOOP_ALLOW_HTTP_URLS: "true",
      WEBHOOK_RETRY_BASE_MS: "1000",
      WEBHOOK_POLL_INTERVAL_MS: "100",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return child;
}


// A second process cannot open the in-memory embedded database: PostgreSQL only.
describe.skipIf(!inject("templateDatabase"))("a worker process killed with deliveries pending", () => {
  it("leaves them to the next process, which delivers every one, each with its own delivery id", async () => {
    const setup = await createRewardSetup(t.db);
    await addWebhook(t.db, setup, { url: receiver.url });
    const granted = [];
    for (let i = 0; i < 10; i++) granted.push(await insertCompletedReward(t.db, setup));
    const deliveryIds = granted.flatMap((g) => g.deliveryIds);
    expect(deliveryIds).toHaveLength(10);

    const first = startWorkerProcess();
    // Every delivery got its first (failed) attempt: all ten wait for their retry when the process dies.
    await waitUntil(() => t.db.deliveryAttempt.count(), (n) => n === 10, { timeoutMs: 60_000, what: "ten first attempts" });
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    expect(await t.db.delivery.count({ where: { status: "Pending" } })).toBe(10);

    receiver.respondWith(() => ({ status: 200 }));
    const second = startWorkerProcess();
    await waitUntil(() => t.db.delivery.count({ where: { status: "Succeeded" } }), (n) => n === 10, { timeoutMs: 60_000, what: "all delivered" });
    second.kill("SIGTERM");

    const succeededIds = new Set(receiver.requests.slice(-10).map((r) => r.headers["x-service-delivery-id"]));
    expect(succeededIds).toEqual(new Set(deliveryIds));
    // One attempt each before the kill, one after: nothing sent twice, nothing lost.
    expect(await t.db.deliveryAttempt.count()).toBe(20);
  }, 180_000);
});
