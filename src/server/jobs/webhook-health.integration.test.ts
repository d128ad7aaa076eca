import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { getDelivery } from "@/server/domain/deliveries/get-delivery";
import { getWebhook } from "@/server/domain/webhooks/get-webhook";
import { updateWebhook } from "@/server/domain/webhooks/update-webhook";
import { attemptOptions } from "./attempt-options";
import { runPurge } from "./click-purge";
import { testAttemptOptions, testConfig } from "@/test/config";
import { addWebhook, createRewardSetupWithReceiver, insertCompletedReward, insertPendingItem, type RewardSetup } from "@/test/delivery-fixtures";
import { createTestDb, type TestDb } from "@/test/db";
import { startSmtpServer, type SmtpTestServer } from "@/test/smtp";
import { waitUntil } from "@/test/wait";
import type { Receiver } from "@/test/webhook-receiver";
import type { WebhookAlert } from "@/server/domain/deliveries/webhook-health";
import { insertRewardDeliveries } from "@/server/domain/deliveries/insert-reward-deliveries";
import { performAttempt } from "@/server/domain/deliveries/perform-attempt";
import { purgeDeliveryBodies } from "@/server/domain/deliveries/purge-delivery-bodies";

/*
 * A webhook's health as its attempts keep it, with a controllable clock: the figures on the record,
 * 410 Gone and 5 days of failures disabling it (the owners told), re-enabling in one call; and the
 * retention purge of delivery bodies.
 */

const DAY = 24 * 60 * 60_000;
let testDb: TestDb;
let db: Db;
let setup: RewardSetup;
let receiver: Receiver;
let smtp: SmtpTestServer;

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await testDb.drop();
});
beforeEach(async () => {
  ({ setup, receiver } = await createRewardSetupWithReceiver(db));
});
afterEach(() => receiver.close());

/** A new reward's delivery to the setup's one webhook (each on a tracking item of its own). */
async function newDelivery() {
  const item = await insertPendingItem(db, setup);
  await db.referralTracking.update({ where: { id: item.id }, data: { status: "Completed", rewardClaimed: true, rewardClaimedAt: new Date() } });
  const { deliveryIds } = await insertCompletedRewardFor(item.id);
  expect(deliveryIds).toHaveLength(1);
  return deliveryIds[0]!;
}

/** insertCompletedReward writes its own item; this writes the outbox rows for an existing one. */
async function insertCompletedRewardFor(trackingId: string) {
  const item = await db.referralTracking.findUniqueOrThrow({ where: { id: trackingId }, include: { referee: true } });
  const payload = {
    event: "purchase",
    referrerId: setup.referrer.clientProvidedId,
    refereeId: item.referee!.clientProvidedId,
    rewardClaimedAt: new Date().toISOString(),
    trackingId,
    rewardStatus: "Completed" as const,
    projectId: setup.project.id,
    projectName: setup.project.name,
    campaignId: setup.campaign.id,
  };
  const rows = await db.$queryRaw<{ id: string }[]>(insertRewardDeliveries(payload, null, item, { at: new Date() }));
  return { deliveryIds: rows.map((r) => r.id) };
}

/** A test clock's start: a minute ahead, so that the deliveries written meanwhile are due at once by it. */
const testClockStart = () => new Date(Date.now() + 60_000);

/** One attempt of the delivery at `at`, collecting what the owners would be told. */
async function attemptAt(deliveryId: string, at: Date, alerts: WebhookAlert[] = []) {
  return performAttempt(db, deliveryId, { ...testAttemptOptions(), now: () => at, alert: async (_db, a) => void alerts.push(...a) });
}

async function ownerOf(email: string) {
  const user = await db.user.create({ data: { email, passwordHash: "x" } });
  await db.membership.create({ data: { userId: user.id, organizationId: setup.org.id, role: "owner" } });
}

describe("webhook health figures", () => {
  it("shows the last 24 hours' success rate and response times, the failures since the last success and when that was", async () => {
    const webhook = await addWebhook(db, setup, { url: receiver.url });
    const empty = await getWebhook(db, setup.org.id, setup.project.id, webhook.id);
    expect(empty.health).toEqual({ windowHours: 24, attempts: 0, successRate: null, p50Ms: null, p95Ms: null, consecutiveFailures: 0, lastSuccessAt: null });
    const replies = [200, 200, 200, 500, 500];
    receiver.respondWith((n) => ({ status: replies[n - 1] ?? 200 }));
    for (let i = 0; i < replies.length; i++) await attemptAt(await newDelivery(), new Date());
    const got = await getWebhook(db, setup.org.id, setup.project.id, webhook.id);
    expect(got.health).toMatchObject({ attempts: 5, successRate: 0.6, consecutiveFailures: 2, lastSuccessAt: expect.any(String) });
    expect(got.health.p50Ms).toEqual(expect.any(Number));
    expect(got.health.p95Ms).toBeGreaterThanOrEqual(got.health.p50Ms!);
    // The percentiles of the answered attempts' times (interpolated), a network error's time left out.
    const logged = await db.deliveryAttempt.findMany({ where: { webhookId: webhook.id }, orderBy: { createdAt: "asc" } });
    for (const [i, a] of logged.entries()) await db.deliveryAttempt.update({ where: { id: a.id }, data: { responseTimeMs: (i + 1) * 10 } });
    await db.deliveryAttempt.update({ where: { id: logged[0]!.id }, data: { httpStatus: null, responseTimeMs: 5_000 } });
    expect((await getWebhook(db, setup.org.id, setup.project.id, webhook.id)).health).toMatchObject({ p50Ms: 35, p95Ms: 49 });
    expect(got.failingSince).toEqual(expect.any(String));
    // Attempts older than the window leave the rate, not the streak.
    await db.$executeRaw`UPDATE "DeliveryAttempt" SET "createdAt" = "createdAt" - interval '2 days' WHERE "webhookId" = ${webhook.id}`;
    expect((await getWebhook(db, setup.org.id, setup.project.id, webhook.id)).health).toMatchObject({ attempts: 0, successRate: null, consecutiveFailures: 2 });
  });
});

describe("automatic disabling", () => {
  it("disables a webhook at once when its receiver answers 410 Gone, records why, and tells the owners by e-mail", async () => {
    await ownerOf("owner-410@health.example");
    const webhook = await addWebhook(db, setup, { url: receiver.url, name: "Gone hook" });
    receiver.respondWith(() => ({ status: 410 }));
    const alerts: WebhookAlert[] = [];
    const deliveryId = await newDelivery();
    const config = smtp.config();
    const options = attemptOptions(config);
    await performAttempt(db, deliveryId, { ...options, alert: async (d, a) => (alerts.push(...a), options.alert!(d, a)) });
    expect(alerts).toEqual([{ webhookId: webhook.id, kind: "disabled", reason: "receiver_gone" }]);
    const got = await getWebhook(db, setup.org.id, setup.project.id, webhook.id);
    expect(got).toMatchObject({ enabled: false, disabledReason: "receiver_gone", disabledAt: expect.any(String) });
    const { mail } = await smtp.mailTo("owner-410@health.example", /was disabled/);
    expect(mail.subject).toContain("Gone hook");
    expect(mail.text).toMatch(/410 Gone/);
    expect((await getDelivery(db, setup.org.id, setup.project.id, deliveryId)).delivery).toMatchObject({ status: "Failed", failure: "dead_lettered" });

    // Re-enabling is one call: the reason and the failing streak are cleared.
    const enabled = await updateWebhook(db, setup.org.id, setup.project.id, webhook.id, { enabled: true }, testConfig().urlRules);
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
  });

  it("disables a webhook all of whose attempts failed for 5 days, not before, and says so once", async () => {
    const webhook = await addWebhook(db, setup, { url: receiver.url });
    receiver.respondWith(() => ({ status: 503 }));
    const start = testClockStart();
    const alerts: WebhookAlert[] = [];
    await attemptAt(await newDelivery(), start, alerts);
    expect(alerts).toEqual([{ webhookId: webhook.id, kind: "failing" }]);
    // Failing for just under 5 days: still enabled, and no second "failing" e-mail within a day.
    await attemptAt(await newDelivery(), new Date(start.getTime() + 60_000), alerts);
    await attemptAt(await newDelivery(), new Date(start.getTime() + 5 * DAY - 60_000), alerts);
    expect(alerts.filter((a) => a.kind === "failing")).toHaveLength(1);
    expect((await getWebhook(db, setup.org.id, setup.project.id, webhook.id)).enabled).toBe(true);
    // Five days after the first failure, with every attempt since failing: disabled.
    await attemptAt(await newDelivery(), new Date(start.getTime() + 5 * DAY + 60_000), alerts);
    expect(alerts.at(-1)).toEqual({ webhookId: webhook.id, kind: "disabled", reason: "failing_5_days" });
    expect(await getWebhook(db, setup.org.id, setup.project.id, webhook.id)).toMatchObject({ enabled: false, disabledReason: "failing_5_days" });
  });

  it("e-mails the owners when a webhook starts failing, at most once a day however often it recovers", async () => {
    await ownerOf("owner-failing@health.example");
    await addWebhook(db, setup, { url: receiver.url, name: "Flaky hook" });
    const replies = [503, 200, 503, 200, 503];
    receiver.respondWith((n) => ({ status: replies[n - 1] ?? 200 }));
    const options = attemptOptions(smtp.config());
    const start = testClockStart();
    const failingMails = () => smtp.received.filter((r) => r.envelopeTo.includes("owner-failing@health.example") && /is failing/.test(r.mail.subject ?? ""));
    const at = async (hours: number) => performAttempt(db, await newDelivery(), { ...options, now: () => new Date(start.getTime() + hours * 60 * 60_000) });

    await at(0);
    const { mail } = await smtp.mailTo("owner-failing@health.example", /is failing/);
    expect(mail.subject).toContain("Flaky hook");
    expect(mail.text).toMatch(/HTTP 503/);
    // Recovers, then fails again within the day: no second e-mail.
    await at(1);
    await at(2);
    // Recovers, then fails again a day after the first e-mail: told again.
    await at(3);
    await at(25);
    await waitUntil(async () => failingMails().length, (n) => n >= 2, { what: "a second failing e-mail" });
    expect(failingMails()).toHaveLength(2);
  });

  it("starts the 5 days afresh after a success", async () => {
    const webhook = await addWebhook(db, setup, { url: receiver.url });
    const replies = [503, 200, 503, 503];
    receiver.respondWith((n) => ({ status: replies[n - 1] ?? 503 }));
    const start = testClockStart();
    await attemptAt(await newDelivery(), start);
    await attemptAt(await newDelivery(), new Date(start.getTime() + 2 * DAY));
    await attemptAt(await newDelivery(), new Date(start.getTime() + 3 * DAY));
    await attemptAt(await newDelivery(), new Date(start.getTime() + 6 * DAY));
    const got = await getWebhook(db, setup.org.id, setup.project.id, webhook.id);
    expect(got).toMatchObject({ enabled: true, failingSince: new Date(start.getTime() + 3 * DAY).toISOString() });
  });
});

describe("retention of delivery bodies", () => {
  it("purges the bodies of deliveries finished more than the retention ago, keeping the rows and their statuses", async () => {
    await addWebhook(db, setup, { url: receiver.url });
    receiver.respondWith(() => ({ status: 422, body: "no such referrer" }));
    const { deliveryIds } = await insertCompletedReward(db, setup);
    const old = deliveryIds[0]!;
    await attemptAt(old, new Date());
    const recent = await newDelivery();
    await attemptAt(recent, new Date());
    const pending = await newDelivery();
    // The clock moves on: "old" finished 31 days before it, "recent" 29 days.
    await db.delivery.update({ where: { id: recent }, data: { lastAttemptAt: new Date(Date.now() + 2 * DAY) } });
    await db.delivery.update({ where: { id: pending }, data: { lastAttemptAt: new Date(Date.now() - DAY) } });
    const now = new Date(Date.now() + 31 * DAY);

    const purged = await runPurge(db, now, testConfig());
    // (with what earlier tests of this database left, all finished "31 days ago" too)
    expect(purged.deliveryBodies).toBeGreaterThanOrEqual(1);
    const detail = await getDelivery(db, setup.org.id, setup.project.id, old);
    expect(detail.delivery).toMatchObject({ status: "Failed", failure: "dead_lettered", bodiesPurgedAt: now.toISOString(), retryable: false, lastHttpStatus: 422 });
    expect(detail.attempts).toHaveLength(1);
    expect(detail.attempts[0]).toMatchObject({ success: false, error: "HTTP 422", response: { status: 422, body: null } });
    expect(detail.attempts[0]!.request).toMatchObject({ url: receiver.url, body: null });
    expect(detail.attempts[0]!.request!.headers).not.toHaveProperty("Content-Length");
    expect((await db.delivery.findUniqueOrThrow({ where: { id: old } })).payload).toBeNull();
    // Kept: one finished within the retention, and one still Pending whatever its age.
    for (const id of [recent, pending]) expect((await db.delivery.findUniqueOrThrow({ where: { id } })).payload).not.toBeNull();
    expect((await getDelivery(db, setup.org.id, setup.project.id, recent)).attempts[0]!.response!.body).toBe("no such referrer");
    // Once purged, a delivery is not purged again; a shorter retention reaches "recent" too.
    expect(await db.delivery.findUniqueOrThrow({ where: { id: old } })).toMatchObject({ bodiesPurgedAt: now });
    expect(await purgeDeliveryBodies(db, new Date(now.getTime() + 1000), 30)).toBe(0);
    expect((await db.delivery.findUniqueOrThrow({ where: { id: old } })).bodiesPurgedAt).toEqual(now);
    expect(await purgeDeliveryBodies(db, now, 1)).toBeGreaterThanOrEqual(1);
    expect((await db.delivery.findUniqueOrThrow({ where: { id: recent } })).payload).toBeNull();
  });

  it("reads its retention from WEBHOOK_BODY_RETENTION_DAYS, 30 by default", () => {
    expect(testConfig().deliveries.bodyRetentionDays).toBe(30);
    expect(testConfig({ WEBHOOK_BODY_RETENTION_DAYS: "7" }).deliveries.bodyRetentionDays).toBe(7);
    expect(() => testConfig({ WEBHOOK_BODY_RETENTION_DAYS: "0" })).toThrow(/WEBHOOK_BODY_RETENTION_DAYS/);
  });
});
