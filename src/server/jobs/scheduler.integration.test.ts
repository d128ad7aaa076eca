import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "@/server/config";
import { testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { addWebhook, createRewardSetup, insertCompletedReward } from "@/test/delivery-fixtures";
import { startReceiver } from "@/test/webhook-receiver";
import { startDeliveryWorker, stopDeliveryWorker } from "./delivery-worker";
import { inngest } from "./inngest-client";
import { deliveryScheduler } from "./scheduler";

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
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
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
});
