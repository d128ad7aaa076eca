import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedWorker, type EmbeddedWorker } from "@/server/jobs/embedded-worker";
import { testAttemptOptions } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { expectProblem, restClientForNewOrg, type RestClient } from "@/test/rest";
import { sdkClient, type SdkClient } from "@/test/sdk";
import { callerFor } from "@/test/sessions";
import { signUpForTest } from "@/test/accounts";
import { startReceiver, type ReceivedRequest, type Receiver } from "@/test/webhook-receiver";

/*
 * Rotation without downtime: the project secret, a webhook's secret and an API key, each with an
 * overlap (0, 1 or 24 hours) during which the previous credential still works, and not after.
 */

let t: TestDb;
let call: RestClient;
let other: RestClient;
let sdk: SdkClient;
let receiver: Receiver;
let worker: EmbeddedWorker;
let project: { uniqueId: string; campaignId: string; projectSecret: string };

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  other = await restClientForNewOrg(t.db);
  sdk = sdkClient(t.db);
  receiver = await startReceiver();
  worker = createEmbeddedWorker({ db: t.db, pollIntervalMs: 50, attempt: { ...testAttemptOptions(), baseMs: 30 } });
  worker.start();
  project = (await call("POST", "/projects", { body: { name: "Rotating", referralRedirectLink: "https://app.example.com/join" } })).json;
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await t.drop();
});

const path = (rest = "") => `/projects/${project.uniqueId}${rest}`;
/** Ends a running overlap as if its hours had passed. */
const endOverlaps = async () => {
  await t.db.project.updateMany({ where: { previousSecretExpiresAt: { not: null } }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
  await t.db.webhook.updateMany({ where: { previousSecretExpiresAt: { not: null } }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
};

/** A client-library call authenticated by `secret`: its status. */
const initWith = async (secret: string, userId = "rotation-user") => (await sdk("init-app-user", { key: secret, body: { userId } })).status;

const verifies = (secret: string, request: ReceivedRequest) => {
  try {
    new Webhook(secret).verify(request.body, {
      "webhook-id": String(request.headers["webhook-id"]),
      "webhook-timestamp": String(request.headers["webhook-timestamp"]),
      "webhook-signature": String(request.headers["webhook-signature"]),
    });
    return true;
  } catch {
    return false;
  }
};

describe("rotating the project secret", () => {
  it("without an overlap the old secret stops at once (as before), and the body is optional", async () => {
    const old = project.projectSecret;
    expect(await initWith(old)).toBe(200);
    const res = await call("POST", path("/rotate-secret"));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ projectSecret: expect.stringMatching(/^sk_/), previousSecretExpiresAt: null });
    expect(await initWith(old)).toBe(401);
    expect(await initWith(res.json.projectSecret)).toBe(200);
    project.projectSecret = res.json.projectSecret;
  });

  it("with an overlap the old secret authenticates until it ends, and not after", async () => {
    const old = project.projectSecret;
    const before = Date.now();
    const res = await call("POST", path("/rotate-secret"), { body: { overlapHours: 24 } });
    expect(res.status, res.text).toBe(200);
    const until = new Date(res.json.previousSecretExpiresAt).getTime();
    expect(until - before).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000);
    expect(until - before).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);
    const fresh = res.json.projectSecret as string;
    // Both work during the overlap, for the secret-only backend call too.
    expect(await initWith(old)).toBe(200);
    expect(await initWith(fresh)).toBe(200);
    const stored = await t.db.project.findUniqueOrThrow({ where: { id: project.uniqueId } });
    expect(JSON.stringify(stored)).not.toContain(old);
    await endOverlaps();
    expect(await initWith(old)).toBe(401);
    expect(await initWith(fresh)).toBe(200);
    project.projectSecret = fresh;
  });

  it("a second rotation drops the oldest secret: at most two are valid", async () => {
    const first = project.projectSecret;
    const second = (await call("POST", path("/rotate-secret"), { body: { overlapHours: 1 } })).json.projectSecret as string;
    const third = (await call("POST", path("/rotate-secret"), { body: { overlapHours: 1 } })).json.projectSecret as string;
    expect(await initWith(first)).toBe(401);
    expect(await initWith(second)).toBe(200);
    expect(await initWith(third)).toBe(200);
    await endOverlaps();
    expect(await initWith(second)).toBe(401);
    project.projectSecret = third;
  });

  it("refuses an overlap other than 0, 1 or 24, naming the field, and another organisation's project", async () => {
    for (const overlapHours of [2, -1, "24", 1.5]) {
      expectProblem(await call("POST", path("/rotate-secret"), { body: { overlapHours } }), 400, ["overlapHours"]);
    }
    expectProblem(await other("POST", path("/rotate-secret"), { body: { overlapHours: 24 } }), 404);
    expect(await initWith(project.projectSecret)).toBe(200);
  });
});

describe("rotating a webhook's secret", () => {
  let hookId: string;
  let oldSecret: string;

  beforeAll(async () => {
    const res = await call("POST", path(`/webhooks/${project.campaignId}`), { body: { name: "Rotated", url: receiver.url } });
    hookId = res.json.id;
    oldSecret = res.json.secret;
  });

  /** A reward, and the request the receiver got for it. */
  let n = 0;
  async function rewardRequest(): Promise<ReceivedRequest> {
    n++;
    const seen = receiver.requests.length;
    const referrer = (await call("POST", path("/users"), { body: { ClientProvidedId: `ref-${n}` } })).json;
    const track = await call("POST", path("/referrals/track"), { body: { ReferralCode: referrer.referralCode, RefereeId: `new-${n}` } });
    const reward = await call("POST", path("/referrals/reward"), { body: { ReferralTrackingId: track.json.referralTrackingId, EventName: "purchase" } });
    expect(reward.json.rewardClaimed, reward.text).toBe(true);
    return (await receiver.waitForRequests(seen + 1))[seen]!;
  }

  it("with an overlap, deliveries carry both signatures: each verifies with standardwebhooks; after it, only the new one", async () => {
    const before = await rewardRequest();
    expect(verifies(oldSecret, before)).toBe(true);

    const res = await call("POST", path(`/webhooks/${hookId}/rotate-secret`), { body: { overlapHours: 1 } });
    expect(res.status, res.text).toBe(200);
    const newSecret = res.json.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(res.json.secretHint).toBe(`****${newSecret.slice(-4)}`);
    expect(res.json.warning).toMatch(/only time/);
    const got = await call("GET", path(`/webhooks/${hookId}`));
    expect(got.json).toMatchObject({ secretHint: res.json.secretHint, previousSecretExpiresAt: res.json.previousSecretExpiresAt });
    expect(got.text).not.toContain(newSecret);

    const during = await rewardRequest();
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifies(newSecret, during)).toBe(true);
    expect(verifies(oldSecret, during)).toBe(true);
    expect(during.headers.authorization).toBe(`Bearer ${newSecret}`);

    await endOverlaps();
    const after = await rewardRequest();
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifies(newSecret, after)).toBe(true);
    expect(verifies(oldSecret, after)).toBe(false);
    expect((await call("GET", path(`/webhooks/${hookId}`))).json.previousSecretExpiresAt).toBeNull();
    oldSecret = newSecret;
  });

  it("without an overlap the previous secret signs nothing more", async () => {
    const res = await call("POST", path(`/webhooks/${hookId}/rotate-secret`));
    expect(res.status, res.text).toBe(200);
    expect(res.json.previousSecretExpiresAt).toBeNull();
    const next = await rewardRequest();
    expect(verifies(res.json.secret, next)).toBe(true);
    expect(verifies(oldSecret, next)).toBe(false);
  });

  it("is a 404 for another organisation, a 400 for a bad overlap, and audited without the secret", async () => {
    expectProblem(await other("POST", path(`/webhooks/${hookId}/rotate-secret`)), 404);
    expectProblem(await call("POST", path(`/webhooks/${hookId}/rotate-secret`), { body: { overlapHours: 12 } }), 400, ["overlapHours"]);
    const entries = await t.db.auditEntry.findMany({ where: { action: "webhook.rotate_secret", targetId: hookId }, orderBy: { createdAt: "asc" } });
    expect(entries.map((e) => (e.details as { overlapHours: number }).overlapHours)).toEqual([1, 0]);
    expect(JSON.stringify(entries)).not.toContain("whsec_");
  });
});

describe("rolling an API key", () => {
  it("gives a new key; the old one works during the overlap, not after; without one it is revoked at once", async () => {
    const owner = await signUpForTest(t.db, await callerFor(t.db, null), "roller@rotation.example");
    const asOwner = await callerFor(t.db, owner.session);
    const key = await asOwner.apiKeys.create({ name: "Backend", role: "member" });
    const { restClient } = await import("@/test/rest");
    const status = async (k: string) => (await restClient(t.db, k)("GET", "/projects")).status;
    expect(await status(key.key)).toBe(200);

    const rolled = await asOwner.apiKeys.roll({ id: key.id, overlapHours: 1 });
    expect(rolled).toMatchObject({ name: "Backend", role: "member", rolledKeyId: key.id, key: expect.stringMatching(/^rl_|.+/) });
    expect(rolled.key).not.toBe(key.key);
    expect(await status(key.key)).toBe(200);
    expect(await status(rolled.key)).toBe(200);
    const entry = await t.db.auditEntry.findFirstOrThrow({ where: { action: "api_key.roll", targetId: key.id } });
    expect(entry.details).toMatchObject({ newKeyId: rolled.id, overlapHours: 1, previousKeyExpiresAt: rolled.previousKeyExpiresAt });
    expect(JSON.stringify(entry)).not.toContain(rolled.key);
    await t.db.apiKey.update({ where: { id: key.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await status(key.key)).toBe(401);

    const again = await asOwner.apiKeys.roll({ id: rolled.id, overlapHours: 0 });
    expect(await status(rolled.key)).toBe(401);
    expect(await status(again.key)).toBe(200);
    expect(await t.db.apiKey.findUnique({ where: { id: rolled.id } })).toBeNull();
    await expect(asOwner.apiKeys.roll({ id: again.id, overlapHours: 2 as 1 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const stranger = await signUpForTest(t.db, await callerFor(t.db, null), "stranger@rotation.example");
    await expect((await callerFor(t.db, stranger.session)).apiKeys.roll({ id: again.id, overlapHours: 0 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await status(again.key)).toBe(200);
  });
});
