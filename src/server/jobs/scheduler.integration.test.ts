import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "@/server/config";
import { testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createApiKey } from "@/server/domain/api-keys/create-api-key";
import { addWebhook, attemptsOf, createRewardSetup, insertCompletedReward, insertPendingItem } from "@/test/delivery-fixtures";
import { restClient } from "@/test/rest";
import { waitUntil } from "@/test/wait";
import { startReceiver } from "@/test/webhook-receiver";
import { startDeliveryWorker, stopDeliveryWorker } from "./delivery-worker";
import { inngest } from "./inngest-client";
import { deliveryScheduler } from "./scheduler";
import { logger } from "@/server/observability/logger";

let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => {
  await stopDeliveryWorker();
  await testDb.drop();
});

const inngestDev = () => deliveryScheduler(loadConfig({ INNGEST_DEV: "1" }));

describe("deliveryScheduler", () => {
  it("is the embedded worker unless Inngest is configured", () => {
    expect(deliveryScheduler(loadConfig({})).kind).toBe("embedded");
    expect(deliveryScheduler(loadConfig({ INNGEST_EVENT_KEY: "evt" })).kind).toBe("embedded");
    expect(deliveryScheduler(loadConfig({ INNGEST_EVENT_KEY: "evt", INNGEST_SIGNING_KEY: "signkey-prod-abc" })).kind).toBe("inngest");
    expect(deliveryScheduler(loadConfig({ INNGEST_DEV: "0" })).kind).toBe("embedded");
    expect(inngestDev().kind).toBe("inngest");
  });

  it("with Inngest, sends one delivery.requested event per delivery", async () => {
    const send = vi.spyOn(inngest, "send").mockResolvedValue({ ids: ["e1", "e2"] });
    try {
      await inngestDev().enqueue(["d1", "d2"]);
      expect(send).toHaveBeenCalledTimes(1);
      expect(send.mock.calls[0]![0]).toMatchObject([
        { name: "referloop/delivery.requested", data: { deliveryId: "d1" } },
        { name: "referloop/delivery.requested", data: { deliveryId: "d2" } },
      ]);
    } finally {
      send.mockRestore();
    }
  });

  it("with Inngest unreachable, enqueue does not fail the caller: the rows stay queued for the sweep", async () => {
    const send = vi.spyOn(inngest, "send").mockRejectedValue(new Error("Inngest unreachable"));
    const logged = vi.spyOn(logger(), "error").mockImplementation(() => {});
    try {
      await expect(inngestDev().enqueue(["d1"])).resolves.toBeUndefined();
      expect(logged).toHaveBeenCalledOnce();
    } finally {
      send.mockRestore();
      logged.mockRestore();
    }
  });

  it("embedded: the worker started for the app delivers what enqueue announces", async () => {
    const { db } = testDb;
    const receiver = await startReceiver();
    try {
      const setup = await createRewardSetup(db);
      await addWebhook(db, setup, { url: receiver.url });
      // A poll this slow cannot be what delivers within the wait below: only enqueue's wake-up can.
      const config = testConfig({ WEBHOOK_POLL_INTERVAL_MS: "60000" });
      const worker = await startDeliveryWorker({ db: async () => db, config });
      expect(await startDeliveryWorker({ db: async () => db, config })).toBe(worker);
      await new Promise((r) => setTimeout(r, 200)); // past its first claim, now asleep
      const { deliveryIds } = await insertCompletedReward(db, setup);
      await deliveryScheduler(config).enqueue(deliveryIds);
      await receiver.waitForRequests(1, 3_000);
      expect(receiver.requests[0]!.headers["x-service-delivery-id"]).toBe(deliveryIds[0]);
    } finally {
      await stopDeliveryWorker();
      await receiver.close();
    }
  });

  it("embedded: a reward granted over REST takes its delivery's first attempt under the worker's lease, and the worker sends it", async () => {
    const { db } = testDb;
    const receiver = await startReceiver();
    try {
      const setup = await createRewardSetup(db);
      await addWebhook(db, setup, { url: receiver.url });
      const { key } = await createApiKey(db, setup.org.id, { name: "backend", role: "owner" }, null);
      const config = testConfig({ WEBHOOK_POLL_INTERVAL_MS: "60000" });
      const worker = await startDeliveryWorker({ db: async () => db, config });
      const item = await insertPendingItem(db, setup);
      const call = restClient(db, key, { config, scheduler: deliveryScheduler(config) });
      receiver.respondWith(() => ({ status: 200, delayMs: 300 }));
      const res = await call("POST", `/projects/${setup.project.id}/referrals/reward`, { body: { referralTrackingId: item.id } });
      expect(res.json).toMatchObject({ rewardClaimed: true });

      await receiver.waitForRequests(1, 3_000);
      const sent = await db.delivery.findFirstOrThrow({ where: { trackingId: item.id } });
      expect(receiver.requests.map((r) => r.headers["x-service-delivery-id"])).toEqual([sent.id]);
      // In flight, and born claimed: attempt 1 under the worker's lease, and the row's only version is
      // the one the reward wrote (a claim by the worker would have written another, later).
      expect(sent).toMatchObject({ attemptCount: 1, leasedBy: worker.id, status: "Pending", updatedAt: sent.createdAt });
      const recorded = await waitUntil(
        () => db.delivery.findUniqueOrThrow({ where: { id: sent.id } }),
        (d) => d.status !== "Pending",
        { timeoutMs: 3_000, what: "the delivery recorded" },
      );
      expect(recorded).toMatchObject({ attemptCount: 1, leasedBy: null, status: "Succeeded" });
      expect((await attemptsOf(db, sent.id)).map((a) => [a.attemptNumber, a.success])).toEqual([[1, true]]);
      expect(worker.lease()?.workerId).toBe(worker.id);
    } finally {
      await stopDeliveryWorker();
      await receiver.close();
    }
  });

  it("embedded: without a running worker there is no lease, and enqueue leaves the rows to a worker's poll", async () => {
    await stopDeliveryWorker();
    const scheduler = deliveryScheduler(testConfig());
    expect(await scheduler.lease()).toBeNull();
    await expect(scheduler.enqueue(["d1"])).resolves.toBeUndefined();
  });
});
