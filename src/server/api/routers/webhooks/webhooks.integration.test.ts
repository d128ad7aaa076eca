import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedWorker, type EmbeddedWorker } from "@/server/jobs/embedded-worker";
import { testAttemptOptions } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { expectProblem, type RestClient, restClientForNewOrg } from "@/test/rest";
import { waitUntil } from "@/test/wait";
import { startReceiver, type Receiver } from "@/test/webhook-receiver";

let t: TestDb;
let call: RestClient;
let other: RestClient;
let receiver: Receiver;
let worker: EmbeddedWorker;
let project: { uniqueId: string; campaignId: string; name: string };

const SECRET = "http-test-secret-0123456789";

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  other = await restClientForNewOrg(t.db);
  receiver = await startReceiver();
  worker = createEmbeddedWorker({ db: t.db, pollIntervalMs: 50, attempt: { ...testAttemptOptions(), baseMs: 30 } });
  worker.start();
  project = (await call("POST", "/projects", { body: { name: "Hooks", referralRedirectLink: "https://app.example.com/join" } })).json;
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await t.drop();
});

/** Link, track and reward over REST: the whole client journey up to the webhook. */
async function reward(referrer: string, referee: string, environment?: "Sandbox" | "Production") {
  await call("POST", `/projects/${project.uniqueId}/users`, { body: { ClientProvidedId: referrer } });
  const link = await call("POST", `/projects/${project.uniqueId}/referrals/link`, { body: { ReferrerId: referrer, RewardEventName: "purchase" } });
  const code = new URL(link.json.referralLink).searchParams.get("referralCode");
  const track = await call("POST", `/projects/${project.uniqueId}/referrals/track`, { body: { ReferralCode: code, RefereeId: referee, RewardEventName: "purchase" } });
  const res = await call("POST", `/projects/${project.uniqueId}/referrals/reward`, {
    body: { ReferralTrackingId: track.json.referralTrackingId, EventName: "purchase", ...(environment ? { Environment: environment } : {}) },
  });
  expect(res.json).toMatchObject({ rewardClaimed: true, status: "Completed" });
  return track.json.referralTrackingId as string;
}

describe("webhooks over REST", () => {
  let hookId: string;

  it("creates a webhook with 201, returns the secret once, and stores it encrypted", async () => {
    const res = await call("POST", `/projects/${project.uniqueId}/webhooks/${project.campaignId}`, {
      body: { Name: "Backend", Url: receiver.url, Secret: SECRET },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: "Backend", enabled: true, environment: "Both", secret: SECRET, campaignId: project.campaignId });
    expect(res.json.warning).toMatch(/only time/);
    hookId = res.json.id;
    const stored = await t.db.webhook.findUniqueOrThrow({ where: { id: hookId } });
    expect(stored.secretEncrypted).not.toContain(SECRET);
    const got = await call("GET", `/projects/${project.uniqueId}/webhooks/${hookId}`);
    expect(got.json.secret).toBeUndefined();
    expect(got.json.secretHint).toMatch(/^\*+.{1,4}$/);
    expect(SECRET.endsWith(got.json.secretHint.replace(/\*/g, ""))).toBe(true);
    const list = await call("GET", `/projects/${project.uniqueId}/webhooks`);
    expect(list.json.map((w: { id: string }) => w.id)).toEqual([hookId]);
  });

  it("delivers a granted reward, signed, and logs the attempt", async () => {
    const trackingId = await reward("alice", "bob");
    const [request] = await receiver.waitForRequests(1);
    const body = JSON.parse(request!.body);
    expect(body).toEqual({
      event: "purchase",
      referrerId: "alice",
      refereeId: "bob",
      rewardClaimedAt: expect.any(String),
      trackingId,
      rewardStatus: "Completed",
      projectId: project.uniqueId,
      projectName: "Hooks",
      campaignId: project.campaignId,
    });
    expect(request!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(request!.headers["x-service-signature"]).toBe(request!.headers["webhook-signature"]);
    new Webhook(new TextEncoder().encode(SECRET), { format: "raw" }).verify(request!.body, {
      "webhook-id": String(request!.headers["webhook-id"]),
      "webhook-timestamp": String(request!.headers["webhook-timestamp"]),
      "webhook-signature": String(request!.headers["webhook-signature"]),
    });
    const logs = await waitUntil(
      () => call("GET", `/projects/${project.uniqueId}/webhooks/${hookId}/logs`),
      (r) => r.json.length === 1,
    );
    expect(logs.json[0]).toMatchObject({ success: true, httpStatus: 200, attemptNumber: 1, eventType: "purchase", deliveryId: request!.headers["x-service-delivery-id"] });
    expect(logs.json[0].responseTimeMs).toEqual(expect.any(Number));
  });

  it("generates a Standard Webhooks secret when none is given, and says which rule a chosen secret breaks", async () => {
    const res = await call("POST", `/projects/${project.uniqueId}/webhooks/${project.campaignId}`, {
      body: { Name: "Generated", Url: receiver.url, Enabled: false },
    });
    expect(res.status).toBe(201);
    expect(res.json.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(() => new Webhook(res.json.secret)).not.toThrow();
    expect(res.json.secretHint).toBe(`****${res.json.secret.slice(-4)}`);
    expect((await call("DELETE", `/projects/${project.uniqueId}/webhooks/${res.json.id}`)).status).toBe(200);

    const short = await call("POST", `/projects/${project.uniqueId}/webhooks/${project.campaignId}`, {
      body: { Name: "Short", Url: receiver.url, Secret: "fifteen-chars-x" },
    });
    expect(short.status).toBe(400);
    expect(short.json.errors).toEqual([expect.objectContaining({ field: "secret", message: expect.stringContaining("at least 16") })]);
  });

  it("validates the logs limit (1 to 500)", async () => {
    for (const limit of ["0", "501", "abc", "1.5"]) {
      const res = await call("GET", `/projects/${project.uniqueId}/webhooks/${hookId}/logs?limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(res.json.errors[0].field).toBe("limit");
    }
    expect((await call("GET", `/projects/${project.uniqueId}/webhooks/${hookId}/logs?limit=500`)).status).toBe(200);
  });

  it("rejects bad webhook input naming the field, storing nothing", async () => {
    const before = await t.db.webhook.count();
    const cases: [Record<string, unknown>, string][] = [
      [{ url: receiver.url, secret: SECRET }, "name"],
      [{ name: "x", secret: SECRET }, "url"],
      [{ name: "x", url: "not a url", secret: SECRET }, "url"],
      [{ name: "x", url: receiver.url, secret: "fifteen-chars-x" }, "secret"],
      [{ name: "x", url: receiver.url, secret: "whsec_not-standard-base64-0123456789" }, "secret"],
      [{ name: "x", url: receiver.url, secret: SECRET, enabled: "false" }, "enabled"],
      [{ name: "x", url: receiver.url, secret: SECRET, environment: "Staging" }, "environment"],
    ];
    for (const [body, field] of cases) {
      const res = await call("POST", `/projects/${project.uniqueId}/webhooks/${project.campaignId}`, { body });
      expect(res.status, field).toBe(400);
      expect(res.json.errors.map((e: { field: string }) => e.field), field).toContain(field);
    }
    const wrongCampaign = await call("POST", `/projects/${project.uniqueId}/webhooks/00000000-0000-0000-0000-000000000000`, {
      body: { name: "x", url: receiver.url, secret: SECRET },
    });
    expect(wrongCampaign.status).toBe(404);
    expect(await t.db.webhook.count()).toBe(before);
  });

  it("dead-letters a 401, retries it over REST with the same delivery id, and refuses to retry a success", async () => {
    receiver.respondWith(() => ({ status: 401 }));
    const seen = receiver.requests.length;
    await reward("carol", "dave");
    const failed = await waitUntil(
      () => call("GET", `/projects/${project.uniqueId}/webhooks/${hookId}/logs`),
      (r) => r.json.some((l: { success: boolean; deliveryStatus: string }) => !l.success && l.deliveryStatus === "Failed"),
    );
    const entry = failed.json.find((l: { success: boolean }) => !l.success);
    expect(entry).toMatchObject({ httpStatus: 401, attemptNumber: 1, retryable: true });
    expect(receiver.requests.length).toBe(seen + 1); // dead-lettered at once: one attempt

    receiver.respondWith(() => ({ status: 200 }));
    const retry = await call("POST", `/projects/${project.uniqueId}/webhooks/logs/${entry.id}/retry`);
    expect(retry.status).toBe(202);
    expect(retry.json).toMatchObject({ deliveryId: entry.deliveryId, status: "Pending" });
    const done = await waitUntil(
      () => call("GET", `/projects/${project.uniqueId}/webhooks/${hookId}/logs`),
      (r) => r.json.some((l: { deliveryId: string; success: boolean }) => l.deliveryId === entry.deliveryId && l.success),
    );
    const success = done.json.find((l: { deliveryId: string; success: boolean }) => l.deliveryId === entry.deliveryId && l.success);
    expect(success.attemptNumber).toBe(2);
    expect(receiver.requests.at(-1)!.headers["x-service-delivery-id"]).toBe(entry.deliveryId);

    expect((await call("POST", `/projects/${project.uniqueId}/webhooks/logs/${success.id}/retry`)).status).toBe(409);
    expect((await call("POST", `/webhooks/logs/${success.id}/retry`)).status).toBe(409);
    expect((await other("POST", `/webhooks/logs/${entry.id}/retry`)).status).toBe(404);
  });

  it("retries without the project prefix, deriving the project from the log", async () => {
    receiver.respondWith(() => ({ status: 404 }));
    await reward("erin", "frank");
    const failed = await waitUntil(
      () => call("GET", `/projects/${project.uniqueId}/webhooks/${hookId}/logs`),
      (r) => r.json.some((l: { httpStatus: number; deliveryStatus: string }) => l.httpStatus === 404 && l.deliveryStatus === "Failed"),
    );
    receiver.respondWith(() => ({ status: 200 }));
    const entry = failed.json.find((l: { httpStatus: number }) => l.httpStatus === 404);
    const retry = await call("POST", `/webhooks/logs/${entry.id}/retry`);
    expect(retry.status).toBe(202);
    expect(retry.json.deliveryId).toBe(entry.deliveryId);
    await waitUntil(
      () => call("GET", `/projects/${project.uniqueId}/webhooks/${hookId}/logs`),
      (r) => r.json.some((l: { deliveryId: string; success: boolean }) => l.deliveryId === entry.deliveryId && l.success),
    );
  });

  it("updates and disables; a disabled webhook receives nothing", async () => {
    const res = await call("PUT", `/projects/${project.uniqueId}/webhooks/${hookId}`, { body: { Enabled: false, Name: "Renamed" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ enabled: false, name: "Renamed" });
    const seen = receiver.requests.length;
    await reward("gina", "hank");
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests.length).toBe(seen);
  });

  it("answers 404 for another organisation's webhooks and changes nothing", async () => {
    const before = JSON.stringify(await t.db.webhook.findMany({ orderBy: { id: "asc" } }));
    const base = `/projects/${project.uniqueId}/webhooks`;
    expect((await other("GET", base)).status).toBe(404);
    expect((await other("GET", `${base}/${hookId}`)).status).toBe(404);
    expect((await other("PUT", `${base}/${hookId}`, { body: { name: "Mine" } })).status).toBe(404);
    expect((await other("DELETE", `${base}/${hookId}`)).status).toBe(404);
    expect((await other("GET", `${base}/${hookId}/logs`)).status).toBe(404);
    expect((await other("POST", `${base}/${project.campaignId}`, { body: { name: "x", url: receiver.url, secret: "another-orgs-secret" } })).status).toBe(404);
    expect(JSON.stringify(await t.db.webhook.findMany({ orderBy: { id: "asc" } }))).toBe(before);
  });

  it("deletes a webhook with its deliveries and logs", async () => {
    expect(await t.db.delivery.count({ where: { webhookId: hookId } })).toBeGreaterThan(0);
    const res = await call("DELETE", `/projects/${project.uniqueId}/webhooks/${hookId}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(await t.db.delivery.count({ where: { webhookId: hookId } })).toBe(0);
    expect(await t.db.deliveryAttempt.count({ where: { webhookId: hookId } })).toBe(0);
    expect((await call("GET", `/projects/${project.uniqueId}/webhooks/${hookId}/logs`)).status).toBe(404);
  });
});

describe("a webhook's secret never follows a new URL", () => {
  it("refuses a URL change without a new secret; a generated or given one replaces it, the test event carries only the new one, and the audit log records it", async () => {
    const OLD = "the-original-secret-0123456789";
    const created = await call("POST", `/projects/${project.uniqueId}/webhooks/${project.campaignId}`, { body: { name: "Guarded", url: receiver.url, secret: OLD } });
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as string;
    const path = `/projects/${project.uniqueId}/webhooks/${id}`;
    const mallory = await startReceiver();
    try {
      // The attack: point the webhook at one's own receiver and send a test event.
      const refused = await call("PUT", path, { body: { url: mallory.url } });
      expectProblem(refused, 400, [["secret", "required_with_new_url"]]);
      expect((await call("PUT", path, { body: { Url: mallory.url, Name: "x" } })).status).toBe(400);
      expect((await t.db.webhook.findUniqueOrThrow({ where: { id } })).url).toBe(new URL(receiver.url).href);
      expectProblem(await call("PUT", path, { body: { url: mallory.url, secret: "given-secret-0123456789", generateSecret: true } }), 400, ["generateSecret"]);
      // The same URL again (a form sends every field) needs nothing new.
      expect((await call("PUT", path, { body: { url: receiver.url, name: "Guarded" } })).status).toBe(200);

      const moved = await call("PUT", path, { body: { url: mallory.url, generateSecret: true } });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.headers.get("cache-control")).toBe("no-store");
      const generated = moved.json.secret as string;
      expect(generated).toMatch(/^whsec_/);
      expect(moved.json.warning).toMatch(/only/);
      expect((await call("GET", path)).json.secret).toBeUndefined();
      expect((await call("POST", `${path}/test`)).status).toBe(200);
      const [sent] = await mallory.waitForRequests(1);
      expect(sent!.headers.authorization).toBe(`Bearer ${generated}`);
      expect(JSON.stringify(mallory.requests)).not.toContain(OLD);

      const given = "a-secret-the-caller-chose-0123";
      const back = await call("PUT", path, { body: { url: receiver.url, secret: given } });
      expect(back.status, back.text).toBe(200);
      expect(back.json.secret).toBeUndefined();

      const audits = await t.db.auditEntry.findMany({ where: { action: "webhook.update", targetId: id }, orderBy: { createdAt: "asc" } });
      // Each entry also carries the field-by-field diff (`changes`), the secret only as its hint's change.
      expect(audits.map((a) => a.details)).toMatchObject([
        { projectId: project.uniqueId, changed: ["name", "url"] },
        { projectId: project.uniqueId, changed: ["secret", "url"], url: { from: new URL(receiver.url).href, to: new URL(mallory.url).href }, secretReplaced: "generated", changes: { url: { from: new URL(receiver.url).href, to: new URL(mallory.url).href }, secretHint: { changed: true } } },
        { projectId: project.uniqueId, changed: ["secret", "url"], url: { from: new URL(mallory.url).href, to: new URL(receiver.url).href }, secretReplaced: "given" },
      ]);
      expect(JSON.stringify(audits)).not.toContain(generated);
      expect(JSON.stringify(audits)).not.toContain(given);
    } finally {
      await mallory.close();
    }
  });
});
