import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "@/server/db/client";
import { createTestDb, type TestDb } from "@/test/db";
import { addWebhook, createRewardSetup, grantReward, stubDeliveryEnv } from "@/test/delivery-fixtures";
import { startReceiver } from "@/test/webhook-receiver";
import { inngest } from "./inngest-client";
import { deliveryScheduler, startDeliveryWorker, stopDeliveryWorker } from "./scheduler";

let testDb: TestDb;
let dataDir: string | undefined;

beforeAll(async () => {
  stubDeliveryEnv();
  for (const name of ["INNGEST_DEV", "INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY"]) vi.stubEnv(name, "");
  testDb = await createTestDb();
  // The app's own database handle (getDb) must be the one the fixtures write to.
  if (testDb.url) vi.stubEnv("DATABASE_URL", testDb.url);
  else vi.stubEnv("REFERLOOP_DATA_DIR", (dataDir = await mkdtemp(path.join(tmpdir(), "referloop-scheduler-"))));
});
afterAll(async () => {
  await stopDeliveryWorker();
  await (await getDb()).$disconnect();
  await testDb.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe("deliveryScheduler", () => {
  it("is the embedded worker unless Inngest is configured", () => {
    expect(deliveryScheduler().kind).toBe("embedded");
    vi.stubEnv("INNGEST_EVENT_KEY", "evt");
    expect(deliveryScheduler().kind).toBe("embedded");
    vi.stubEnv("INNGEST_SIGNING_KEY", "signkey-prod-abc");
    expect(deliveryScheduler().kind).toBe("inngest");
    vi.stubEnv("INNGEST_EVENT_KEY", "");
    vi.stubEnv("INNGEST_SIGNING_KEY", "");
    vi.stubEnv("INNGEST_DEV", "0");
    expect(deliveryScheduler().kind).toBe("embedded");
    vi.stubEnv("INNGEST_DEV", "1");
    expect(deliveryScheduler().kind).toBe("inngest");
    vi.stubEnv("INNGEST_DEV", "");
  });

  it("with Inngest, sends one delivery.requested event per delivery", async () => {
    vi.stubEnv("INNGEST_DEV", "1");
    const send = vi.spyOn(inngest, "send").mockResolvedValue({ ids: ["e1", "e2"] });
    try {
      await deliveryScheduler().enqueue(["d1", "d2"]);
      expect(send).toHaveBeenCalledTimes(1);
      expect(send.mock.calls[0]![0]).toMatchObject([
        { name: "referloop/delivery.requested", data: { deliveryId: "d1" } },
        { name: "referloop/delivery.requested", data: { deliveryId: "d2" } },
      ]);
    } finally {
      send.mockRestore();
      vi.stubEnv("INNGEST_DEV", "");
    }
  });

  it("embedded: the worker started for the app delivers what enqueue announces", async () => {
    const db: Db = await getDb();
    const receiver = await startReceiver();
    try {
      const setup = await createRewardSetup(db);
      await addWebhook(db, setup, { url: receiver.url });
      // A poll this slow cannot be what delivers within the wait below: only enqueue's wake-up can.
      vi.stubEnv("WEBHOOK_POLL_INTERVAL_MS", "60000");
      const worker = await startDeliveryWorker();
      expect(await startDeliveryWorker()).toBe(worker);
      await new Promise((r) => setTimeout(r, 200)); // past its first claim, now asleep
      const { deliveryIds } = await grantReward(db, setup);
      await deliveryScheduler().enqueue(deliveryIds);
      await receiver.waitForRequests(1, 3_000);
      expect(receiver.requests[0]!.headers["x-service-delivery-id"]).toBe(deliveryIds[0]);
    } finally {
      await stopDeliveryWorker();
      await receiver.close();
    }
  });
});
