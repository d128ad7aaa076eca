import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedWorker, type EmbeddedWorker } from "@/server/jobs/embedded-worker";
import { testAttemptOptions } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { restClientForNewOrg, type RestClient } from "@/test/rest";
import { waitUntil } from "@/test/wait";
import { resendExhausted } from "@/server/domain/deliveries/resend-exhausted";

/*
 * Recovery after an outage (a webhook's autoRecover): a receiver that is down (nothing listens on its
 * port) until every attempt of the rewards granted meanwhile is spent, then up again. The retry base
 * is 30 ms instead of 5 s, so the five attempts of the spec take under a second and "two minutes
 * down" is a second or two: the same schedule, scaled.
 */

let t: TestDb;
let call: RestClient;
let worker: EmbeddedWorker;
let project: { uniqueId: string; campaignId: string };

/** A real receiver on a fixed port that can go down (closed: connections refused) and come back. */
function flakyReceiver() {
  const accepted: string[] = [];
  let server: http.Server | null = null;
  let port = 0;
  const up = () =>
    new Promise<void>((resolve) => {
      server = http.createServer((req, res) => {
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString("utf8")));
        req.on("end", () => {
          accepted.push(JSON.parse(body).trackingId);
          res.writeHead(200).end("ok");
        });
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      server!.closeAllConnections();
      server!.close(() => resolve());
      server = null;
    });
  return { accepted, up, down, url: () => `http://127.0.0.1:${port}/hook` };
}

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  worker = createEmbeddedWorker({ db: t.db, pollIntervalMs: 30, attempt: { ...testAttemptOptions(), baseMs: 30 } });
  worker.start();
  project = (await call("POST", "/projects", { body: { name: "Recovering", referralRedirectLink: "https://app.example.com/join" } })).json;
});
afterAll(async () => {
  await worker.stop();
  await t.drop();
});

let n = 0;
async function reward(): Promise<string> {
  n++;
  const referrer = (await call("POST", `/projects/${project.uniqueId}/users`, { body: { ClientProvidedId: `referrer-${n}` } })).json;
  const track = await call("POST", `/projects/${project.uniqueId}/referrals/track`, { body: { ReferralCode: referrer.referralCode, RefereeId: `referee-${n}` } });
  const res = await call("POST", `/projects/${project.uniqueId}/referrals/reward`, { body: { ReferralTrackingId: track.json.referralTrackingId, EventName: "purchase" } });
  expect(res.json.rewardClaimed, res.text).toBe(true);
  return track.json.referralTrackingId;
}

describe("recovery after an outage", () => {
  it("autoRecover is false by default, and set on create and update, in the answers", async () => {
    const created = await call("POST", `/projects/${project.uniqueId}/webhooks/${project.campaignId}`, { body: { name: "Plain", url: "https://hooks.example.com/a" } });
    expect(created.json.autoRecover).toBe(false);
    const on = await call("PUT", `/projects/${project.uniqueId}/webhooks/${created.json.id}`, { body: { autoRecover: true } });
    expect(on.json.autoRecover).toBe(true);
    expect((await call("GET", `/projects/${project.uniqueId}/webhooks/${created.json.id}`)).json.autoRecover).toBe(true);
    const bad = await call("PUT", `/projects/${project.uniqueId}/webhooks/${created.json.id}`, { body: { autoRecover: "yes" } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].field).toBe("autoRecover");
    await call("DELETE", `/projects/${project.uniqueId}/webhooks/${created.json.id}`);
  });

  it("a receiver down until every attempt is spent, then up: every reward arrives once, and only with autoRecover", { timeout: 60_000 }, async () => {
    const receiver = flakyReceiver();
    const control = flakyReceiver();
    await receiver.up();
    await control.up();
    const make = async (name: string, url: string, autoRecover?: boolean) =>
      (await call("POST", `/projects/${project.uniqueId}/webhooks/${project.campaignId}`, { body: { name, url, ...(autoRecover === undefined ? {} : { autoRecover }) } })).json
        .id as string;
    const hook = await make("Recovering", receiver.url(), true);
    const plain = await make("Not recovering", control.url());

    const before = await reward();
    await waitUntil(() => Promise.resolve(receiver.accepted.length), (c) => c === 1);
    await receiver.down();
    await control.down();
    const duringOutage = [await reward(), await reward(), await reward()];
    // Down until every attempt of those is spent (exhausted), as a deploy's two minutes would be.
    await waitUntil(
      () => t.db.delivery.count({ where: { trackingId: { in: duringOutage }, status: "Failed", failure: "exhausted" } }),
      (c) => c === 2 * duringOutage.length,
      { timeoutMs: 20_000 },
    );
    await receiver.up();
    await control.up();

    // The first success after the failures starts the recovery.
    const after = await reward();
    const everyReward = [before, ...duringOutage, after];
    await waitUntil(() => Promise.resolve(new Set(receiver.accepted).size), (c) => c === everyReward.length, { timeoutMs: 20_000 });
    // More successes start nothing more: give the worker time to (wrongly) send anything twice.
    await reward();
    await new Promise((r) => setTimeout(r, 1000));
    const sent = receiver.accepted.filter((id) => everyReward.includes(id));
    expect(sent.sort()).toEqual([...everyReward].sort());

    const recovered = await t.db.delivery.findMany({ where: { webhookId: hook, trackingId: { in: duringOutage } } });
    expect(recovered.map((d) => [d.status, d.recoveredAt !== null])).toEqual(duringOutage.map(() => ["Succeeded", true]));
    // Paced: due one after another in the order they failed, not all at once.
    const due = recovered.map((d) => d.nextAttemptAt.getTime()).sort((x, y) => x - y);
    expect(due.slice(1).map((at, i) => at - due[i]!)).toEqual(duringOutage.slice(1).map(() => 100));
    // Visible over REST (the console's delivery search) and in the audit log, by the service.
    const listed = await call("GET", `/projects/${project.uniqueId}/deliveries?webhookId=${hook}&pageSize=100`);
    expect(listed.json.items.filter((d: { recoveredAt: string | null }) => d.recoveredAt !== null)).toHaveLength(duringOutage.length);
    const audit = await t.db.auditEntry.findMany({ where: { action: "webhook.recover", targetId: hook } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: "service", details: { resent: duringOutage.length, windowDays: 3 } });

    // The webhook without autoRecover keeps them failed until someone retries.
    expect(control.accepted.filter((id) => duringOutage.includes(id))).toEqual([]);
    expect(await t.db.delivery.count({ where: { webhookId: plain, trackingId: { in: duringOutage }, status: "Failed", recoveredAt: null } })).toBe(duringOutage.length);
    await receiver.down();
    await control.down();
  });
});

describe("resendExhausted", () => {
  it("sends each exhausted delivery of the last 3 days at most once, however many recoveries race", { timeout: 60_000 }, async () => {
    await worker.stop(); // nothing sends these: only the recovery's own writes are under test
    const webhook = await t.db.webhook.create({
      data: { projectId: project.uniqueId, campaignId: project.campaignId, name: "Race", url: "https://hooks.example.com/race", secretEncrypted: "x", secretHint: "x", enabled: false },
    });
    const now = Date.now();
    for (let round = 0; round < 5; round++) {
      const exhausted = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.db.delivery.create({
            data: { projectId: project.uniqueId, webhookId: webhook.id, eventName: "purchase", payload: {}, status: "Failed", failure: "exhausted", attemptCount: 5, lastAttemptAt: new Date(now - i * 60_000) },
          }),
        ),
      );
      const old = await t.db.delivery.create({
        data: { projectId: project.uniqueId, webhookId: webhook.id, eventName: "purchase", payload: {}, status: "Failed", failure: "exhausted", attemptCount: 5, lastAttemptAt: new Date(now - 4 * 86_400_000) },
      });
      const deadLettered = await t.db.delivery.create({
        data: { projectId: project.uniqueId, webhookId: webhook.id, eventName: "purchase", payload: {}, status: "Failed", failure: "dead_lettered", attemptCount: 1, lastAttemptAt: new Date(now) },
      });
      const counts = await Promise.all(Array.from({ length: 8 }, () => resendExhausted(t.db, webhook.id)));
      expect(counts.reduce((a, b) => a + b, 0), `round ${round}`).toBe(exhausted.length);
      const rows = await t.db.delivery.findMany({ where: { id: { in: exhausted.map((d) => d.id) } }, orderBy: { lastAttemptAt: "asc" } });
      expect(rows.every((d) => d.status === "Pending" && d.recoveredAt !== null)).toBe(true);
      // Paced in the order they failed, 100 ms apart.
      const gaps = rows.slice(1).map((d, i) => d.nextAttemptAt.getTime() - rows[i]!.nextAttemptAt.getTime());
      expect(new Set(gaps)).toEqual(new Set([100]));
      expect(await t.db.delivery.findUniqueOrThrow({ where: { id: old.id } })).toMatchObject({ status: "Failed", recoveredAt: null });
      expect(await t.db.delivery.findUniqueOrThrow({ where: { id: deadLettered.id } })).toMatchObject({ status: "Failed", recoveredAt: null });
      // Exhausted again after recovery: never a second time.
      await t.db.delivery.updateMany({ where: { id: { in: exhausted.map((d) => d.id) } }, data: { status: "Failed", failure: "exhausted" } });
      expect(await resendExhausted(t.db, webhook.id)).toBe(0);
      await t.db.delivery.deleteMany({ where: { webhookId: webhook.id } });
    }
  });
});
