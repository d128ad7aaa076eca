import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeOrphanDeliveries } from "@/server/domain/deliveries/purge-orphan-deliveries";
import { createTestDb, type TestDb } from "@/test/db";
import { addWebhook, createRewardSetup, insertCompletedReward } from "@/test/delivery-fixtures";

/*
 * A delivery carries no foreign key to its webhook, so a claim that routed to a webhook before its
 * deletion committed can write a delivery for it afterwards. Here that end state is made directly: the
 * webhook's row deleted under its delivery. The purge job deletes such deliveries with their attempts,
 * and nothing of a webhook that still exists.
 */
let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t?.drop());

describe("purgeOrphanDeliveries", () => {
  it("deletes the deliveries, and their attempts, of webhooks that are gone, and only those", async () => {
    const setup = await createRewardSetup(t.db);
    const kept = await addWebhook(t.db, setup, { url: "https://hooks.example.com/kept" });
    const gone = await addWebhook(t.db, setup, { url: "https://hooks.example.com/gone" });
    const first = await insertCompletedReward(t.db, setup);
    const second = await insertCompletedReward(t.db, setup);
    const ids = [...first.deliveryIds, ...second.deliveryIds];
    const byWebhook = async () =>
      (await t.db.delivery.groupBy({ by: ["webhookId"], where: { id: { in: ids } }, _count: true })).map((g) => [g.webhookId, g._count]).sort();
    expect(await byWebhook()).toEqual([[kept.id, 2], [gone.id, 2]].sort());
    const orphan = (await t.db.delivery.findFirstOrThrow({ where: { id: { in: ids }, webhookId: gone.id } })).id;
    await t.db.deliveryAttempt.create({
      data: { projectId: setup.project.id, webhookId: gone.id, deliveryId: orphan, attemptNumber: 1, eventType: "reward.granted", responseTimeMs: 3, success: true, httpStatus: 200 },
    });
    await t.db.$executeRaw`DELETE FROM "Webhook" WHERE "id" = ${gone.id}`;

    expect(await purgeOrphanDeliveries(t.db)).toBe(2);
    expect(await byWebhook()).toEqual([[kept.id, 2]]);
    expect(await t.db.deliveryAttempt.count({ where: { deliveryId: orphan } })).toBe(0);
    expect(await purgeOrphanDeliveries(t.db)).toBe(0);
  });
});
