import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import { addWebhook, createRewardSetup, insertCompletedReward } from "@/test/delivery-fixtures";
import { domainError } from "@/test/expect";
import { getWebhookHealthHistory } from "./get-webhook-health-history";

/* The health chart's figures: a webhook's attempts per UTC day, zeros included, its own only. */

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t?.drop());

describe("getWebhookHealthHistory", () => {
  it("counts each day's attempts and successes, every day of the range, and nothing of another webhook or organisation", async () => {
    const setup = await createRewardSetup(t.db);
    const hook = await addWebhook(t.db, setup, { url: "https://a.example.com/h" });
    const other = await addWebhook(t.db, setup, { url: "https://b.example.com/h" });
    const { deliveryIds } = await insertCompletedReward(t.db, setup);
    const attempt = (webhookId: string, n: number, at: string, success: boolean, ms: number) =>
      t.db.deliveryAttempt.create({
        data: { projectId: setup.project.id, webhookId, deliveryId: deliveryIds.find(Boolean)!, attemptNumber: n, eventType: "purchase", success, responseTimeMs: ms, createdAt: new Date(at) },
      });
    await attempt(hook.id, 1, "2026-11-27T23:59:59.999Z", false, 900);
    await attempt(hook.id, 2, "2026-11-28T00:00:00.000Z", false, 100);
    await attempt(hook.id, 3, "2026-11-28T12:00:00.000Z", true, 50);
    await attempt(other.id, 4, "2026-11-28T12:00:00.000Z", true, 10);
    // Before the range: not counted.
    await attempt(hook.id, 5, "2026-11-26T23:59:59.999Z", true, 10);

    const now = new Date("2026-11-29T08:00:00.000Z");
    expect(await getWebhookHealthHistory(t.db, setup.org.id, setup.project.id, hook.id, 3, now)).toEqual([
      { date: "2026-11-27", attempts: 1, succeeded: 0, p95Ms: 900 },
      { date: "2026-11-28", attempts: 2, succeeded: 1, p95Ms: 100 },
      { date: "2026-11-29", attempts: 0, succeeded: 0, p95Ms: null },
    ]);
    const stranger = await createRewardSetup(t.db);
    expect((await domainError(getWebhookHealthHistory(t.db, stranger.org.id, setup.project.id, hook.id, 3, now))).kind).toBe("not_found");
  });
});
