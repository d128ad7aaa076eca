import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { WebhookEnvironment } from "@/generated/prisma/client";
import type { WebhookEventType } from "@/lib/schemas/webhook-events";
import type { Db } from "@/server/db/client";
import { testAttemptOptions } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { addWebhook, createRewardSetupWithReceiver, insertCompletedReward, type RewardSetup } from "@/test/delivery-fixtures";
import type { Receiver } from "@/test/webhook-receiver";
import { writeEventDeliveries, type CatalogueEvent } from "./insert-event-deliveries";
import { performAttempt } from "./perform-attempt";

let testDb: TestDb;
let db: Db;
let setup: RewardSetup;
let receiver: Receiver;

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterAll(() => testDb.drop());
beforeEach(async () => {
  ({ setup, receiver } = await createRewardSetupWithReceiver(db));
});
afterEach(() => receiver.close());

const SECRET = "whsec_" + Buffer.from("event-catalogue-test-key-32-byte").toString("base64");

/** A webhook of the setup subscribed to `events` (none given: the default). */
async function hook(name: string, environment: WebhookEnvironment, events?: WebhookEventType[], enabled = true) {
  const created = await addWebhook(db, setup, { name, url: `${receiver.url}/${name}`, environment, enabled, secret: SECRET });
  if (events) await db.webhook.update({ where: { id: created.id }, data: { events } });
  return created.id;
}

const revoked = (trackingId: string, environment: CatalogueEvent["environment"]): CatalogueEvent => ({
  type: "reward.revoked",
  projectId: setup.project.id,
  trackingId,
  parties: { referrerId: setup.referrer.id, refereeId: setup.referee.id },
  environment,
  payload: { trackingId, reason: "refund" },
});

const names = async (ids: string[]) => {
  const deliveries = await db.delivery.findMany({ where: { id: { in: ids } }, select: { webhookId: true } });
  const hooks = new Map((await db.webhook.findMany({ where: { id: { in: deliveries.map((d) => d.webhookId) } } })).map((w) => [w.id, w.name]));
  return deliveries.map((d) => hooks.get(d.webhookId)).sort();
};

describe("writeEventDeliveries", () => {
  it("writes one delivery per enabled webhook subscribed to the type and routed to the environment, once", async () => {
    await hook("default", "Both");
    await hook("production", "Production", ["reward.granted", "reward.revoked"]);
    await hook("sandbox", "Sandbox", ["reward.revoked"]);
    await hook("disabled", "Both", ["reward.revoked"], false);
    const { tracking, deliveryIds: granted } = await insertCompletedReward(db, setup);
    // The reward itself reaches only the webhooks subscribed to reward.granted.
    expect(await names(granted)).toEqual(["default", "production"]);

    const production = await db.$transaction((tx) => writeEventDeliveries(tx, revoked(tracking.id, "Production")));
    expect(await names(production.deliveries.map((d) => d.id))).toEqual(["production"]);
    // Without an environment every subscribed webhook gets it, each once: the production one already has it.
    const all = await db.$transaction((tx) => writeEventDeliveries(tx, revoked(tracking.id, null)));
    expect(await names(all.deliveries.map((d) => d.id))).toEqual(["sandbox"]);
    expect(await db.delivery.count({ where: { trackingId: tracking.id, eventType: "reward.revoked" } })).toBe(2);
    expect(all).toMatchObject({ projectId: setup.project.id, eventType: "reward.revoked", eventName: "reward.revoked", lease: null });
  });

  it("writes nothing when the caller's transaction rolls back", async () => {
    await hook("revoked", "Both", ["reward.revoked"]);
    const { tracking } = await insertCompletedReward(db, setup);
    await expect(
      db.$transaction(async (tx) => {
        await writeEventDeliveries(tx, revoked(tracking.id, null));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await db.delivery.count({ where: { trackingId: tracking.id, eventType: "reward.revoked" } })).toBe(0);
  });

  it("sends the type in the body (first) and in X-Service-Event-Type, signed", async () => {
    await hook("revoked", "Both", ["reward.revoked"]);
    const { tracking } = await insertCompletedReward(db, setup);
    const { deliveries } = await db.$transaction((tx) => writeEventDeliveries(tx, revoked(tracking.id, null)));
    expect(await performAttempt(db, deliveries[0]!.id, testAttemptOptions())).toMatchObject({ outcome: "succeeded" });
    const [request] = receiver.requests;
    expect(request!.headers["x-service-event-type"]).toBe("reward.revoked");
    expect(JSON.parse(request!.body)).toEqual({ type: "reward.revoked", trackingId: tracking.id, reason: "refund" });
    expect(Object.keys(JSON.parse(request!.body))[0]).toBe("type");
    new Webhook(SECRET).verify(request!.body, {
      "webhook-id": String(request!.headers["webhook-id"]),
      "webhook-timestamp": String(request!.headers["webhook-timestamp"]),
      "webhook-signature": String(request!.headers["webhook-signature"]),
    });
  });

  it("keeps the reward's body the spec's, and says its type in the header", async () => {
    await hook("default", "Both");
    const { deliveryIds, payload } = await insertCompletedReward(db, setup);
    await performAttempt(db, deliveryIds[0]!, testAttemptOptions());
    const [request] = receiver.requests;
    expect(JSON.parse(request!.body)).toEqual(payload);
    expect(request!.headers["x-service-event-type"]).toBe("reward.granted");
  });
});
