import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleSdkRequest } from "@/server/api/rest/handle-sdk-request";
import { userHashOf } from "@/server/domain/projects/verify-user-hash";
import { testServices } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { uniqueName as uid } from "@/test/names";
import { createAppUserOverRest, type RestClient, restClientForNewOrg } from "@/test/rest";
import { createSdkProject, sdkClient } from "@/test/sdk";
import { createReferloopMobile, STORAGE_KEYS, type DeviceAdapter, type StorageAdapter } from "../../../../packages/react-native/src/index";
import { memoryStorage } from "@/test/mobile-storage";

/*
 * The mobile client (packages/react-native) against the real init-app-user over HTTP: the app's SDK handler behind a plain
 * node:http server, this file's own database. What the service decides (keys, binding, identity
 * verification, the body's schema) is checked here; the client's own behaviour on transport failures
 * stays in create-referloop-mobile.test.ts against a contract-following fake, and the first launch's
 * attribution from the landing page's signals is in src/server/http/landing/mobile-client-flow.integration.test.ts.
 */

let t: TestDb;
let rest: RestClient;
let project: Awaited<ReturnType<typeof createSdkProject>>;
let apiBaseUrl = "";
let server: http.Server;

beforeAll(async () => {
  t = await createTestDb();
  rest = await restClientForNewOrg(t.db);
  project = await createSdkProject(rest, { name: "Mobile app", referralRedirectLink: "https://acme.example/join" });
  const services = testServices(t.db);
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) for (const v of [value ?? []].flat()) headers.append(name, v);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const answer = await handleSdkRequest(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }), services);
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  apiBaseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await t?.drop();
});

/** A Pixel on its first launch: an Install Referrer that names no referral, no clipboard, no link. */
const pixel: DeviceAdapter = {
  getInfo: () => ({ os: "android", osVersion: "14", screenWidth: 411.43, screenHeight: 914.29, pixelRatio: 2.625, timezone: "Europe/Berlin", locale: "de-DE" }),
  getInstallReferrer: async () => "utm_source=google-play&utm_medium=organic",
  readClipboard: async () => null,
  getInitialLink: async () => null,
};

const launch = (storage: StorageAdapter, key = project.publishableKey) => createReferloopMobile({ key, apiBaseUrl, storage, device: pixel });

describe("createReferloopMobile against the real init-app-user", () => {
  it("a link opened before sign-in: identify binds the user to that referral, exactly as the web widget's stored token does", async () => {
    const ada = await createAppUserOverRest(rest, project.projectId, uid("ada"));
    const tracked = await sdkClient(t.db)("track-referral", { key: project.publishableKey, body: { referralCode: ada.referralCode } });
    const trackingId = tracked.json.referralTrackingId as string;
    const storage = memoryStorage();
    const referloop = launch(storage);
    await referloop.start();
    expect((await referloop.handleLink(`acme://join?referralTrackingId=${trackingId}`)).handled).toBe(true);

    const userId = uid("mobile-user");
    const result = await referloop.identify({ userId, attributes: { name: "Mo" } });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    const stored = await t.db.appUser.findUniqueOrThrow({ where: { projectId_clientProvidedId: { projectId: project.projectId, clientProvidedId: userId } } });
    expect(result.user).toMatchObject({ id: stored.id, clientProvidedId: userId, referralCode: stored.referralCode, referralTrackingId: trackingId });
    expect(referloop.getReferralLink()).toBe(`https://acme.example/join?referralCode=${stored.referralCode}`);
    expect(referloop.getAttribution()).toEqual({ method: "cookie", confidence: 1 });
    expect(stored.attributes).toEqual({ name: "Mo" });
    expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).toMatchObject({ refereeId: stored.id });
    expect(storage.data.get(STORAGE_KEYS.trackedReferral)).toBe(trackingId);

    // The next launch: same user, nothing bound twice. The publishable key alone now speaks for an
    // existing user, so the answer names no referral of theirs; the app's storage keeps it.
    const again = await launch(storage).identify({ userId, attributes: { name: "Someone else" } });
    expect(again.ok && again.user).toMatchObject({ id: stored.id, referralTrackingId: null, attribution: { method: "none", confidence: 0 } });
    expect(storage.data.get(STORAGE_KEYS.trackedReferral)).toBe(trackingId);
    expect(await t.db.appUser.findUniqueOrThrow({ where: { id: stored.id } })).toMatchObject({ totalReferralsReceived: 1, attributes: { name: "Mo" } });
  });

  it("a code alone (a link with referralCode) binds through a new referral", async () => {
    const ada = await createAppUserOverRest(rest, project.projectId, uid("ada"));
    const referloop = launch(memoryStorage());
    await referloop.handleLink(`https://acme.example/join?referralCode=${ada.referralCode}`);
    const result = await referloop.identify({ userId: uid("by-link") });
    expect(result.ok && result.user.referralTrackingId).toEqual(expect.any(String));
    expect(await t.db.referralTracking.count({ where: { referrerId: ada.uniqueId, refereeId: { not: null } } })).toBe(1);
  });

  it("a wrong key is an unauthorized result carrying the service's problem", async () => {
    const result = await launch(memoryStorage(), "pk_wrong").identify({ userId: "u" });
    expect(!result.ok && result.error).toMatchObject({ kind: "unauthorized", status: 401, retryable: false });
    expect(!result.ok && result.error.problem).toMatchObject({ type: "urn:referloop:problem:unauthorized", status: 401 });
  });

  it("identity verification: the userHash from the app's backend is what lets the user in", async () => {
    const verified = await createSdkProject(rest, { name: "Verified app", identityVerification: true });
    const userId = uid("verified");
    const referloop = createReferloopMobile({ key: verified.publishableKey, apiBaseUrl, storage: memoryStorage(), device: pixel });
    expect(await referloop.identify({ userId })).toMatchObject({ ok: false, error: { kind: "unauthorized" } });
    expect(await referloop.identify({ userId, userHash: userHashOf(verified.secret, "someone else") })).toMatchObject({ ok: false, error: { kind: "unauthorized" } });
    expect(await referloop.identify({ userId, userHash: userHashOf(verified.secret, userId) })).toMatchObject({ ok: true });
  });

  it("getReferralSummary: the identified user's summary as typed data; without userHash nothing is asked, another user's hash is refused", async () => {
    const userId = uid("summary-user");
    const referrer = await createAppUserOverRest(rest, project.projectId, userId, { name: "Sum" });
    await sdkClient(t.db)("track-referral", { key: project.publishableKey, body: { referralCode: referrer.referralCode } });

    const unverified = launch(memoryStorage());
    expect((await unverified.identify({ userId })).ok).toBe(true);
    const refused = await unverified.getReferralSummary();
    expect(refused.ok || refused.error.kind).toBe("invalid_input");

    const referloop = launch(memoryStorage());
    expect((await referloop.identify({ userId, userHash: userHashOf(project.secret, userId) })).ok).toBe(true);
    const result = await referloop.getReferralSummary({ pageSize: 5 });
    if (!result.ok) throw result.error;
    expect(result.summary.referralCode).toBe(referrer.referralCode);
    expect(result.summary.totals).toEqual({ arrived: 1, joined: 0, pending: 0, beingChecked: 0, rewarded: 0 });
    expect(result.summary.friends).toMatchObject({ pageSize: 5, totalCount: 1, items: [{ status: "arrived", masked: true }] });

    const other = createReferloopMobile({ key: project.publishableKey, apiBaseUrl, storage: memoryStorage(), device: pixel });
    // A hash of someone else's id: init-app-user refuses it, and nothing is asked for the summary.
    expect((await other.identify({ userId, userHash: userHashOf(project.secret, "someone-else") })).ok).toBe(false);
    const none = await other.getReferralSummary();
    expect(none.ok).toBe(false);
  });
});
