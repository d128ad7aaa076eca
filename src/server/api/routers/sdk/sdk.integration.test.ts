import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { userHashOf } from "@/server/domain/projects/verify-user-hash";
import { PEER_ADDRESS_HEADER } from "@/server/http/peer-address";
import { recordingScheduler, testConfig } from "@/test/config";
import { countedReferrals } from "@/test/fixtures";
import { createTestDb, type TestDb } from "@/test/db";
import { uniqueName as uid } from "@/test/names";
import { createAppUserOverRest, expectProblem, type RestAppUser, type RestClient, restClientForNewOrg } from "@/test/rest";
import { createSdkProject, sdkClient, type SdkClient } from "@/test/sdk";
import { dataSnapshot } from "@/test/snapshot";

/*
 * The client-library endpoints over HTTP: the real SDK handler (CORS around the REST wrapper) with
 * real Requests, against this file's own database. Credentials, origins and preflight first, then
 * each endpoint, the binding rules and identity verification.
 */

const scheduler = recordingScheduler();
const SHOP = "https://shop.example.com";
const EVIL = "https://evil.example.net";
const NO_SUCH_ID = "00000000-0000-0000-0000-000000000000";

let t: TestDb;
let rest: RestClient;
let sdk: SdkClient;
/** The main project: the shop's origin allowed. */
let main: Awaited<ReturnType<typeof createSdkProject>>;
/** Another organisation's project, with a referrer and an anonymous arrival of its own. */
let foreign: Awaited<ReturnType<typeof createSdkProject>> & { referrer: RestAppUser; trackingId: string };

beforeAll(async () => {
  t = await createTestDb();
  rest = await restClientForNewOrg(t.db, { scheduler });
  sdk = sdkClient(t.db, { scheduler });
  main = await createSdkProject(rest, { allowedOrigins: [SHOP, "http://localhost:3000/"] });
  const other = await restClientForNewOrg(t.db);
  const theirs = await createSdkProject(other, { name: "Theirs", allowedOrigins: [SHOP] });
  const referrer = await createAppUserOverRest(other, theirs.projectId, "their-referrer", { name: "Theo" });
  const tracked = await sdk("track-referral", { key: theirs.publishableKey, body: { referralCode: referrer.referralCode } });
  expect(tracked.status, tracked.text).toBe(200);
  foreign = { ...theirs, referrer, trackingId: tracked.json.referralTrackingId };
});
afterAll(() => t?.drop());
beforeEach(() => scheduler.enqueued.splice(0));

const referrer = (attributes?: Record<string, string>, clientProvidedId = uid("referrer")) =>
  createAppUserOverRest(rest, main.projectId, clientProvidedId, attributes);

/** An anonymous arrival through a fresh referrer's link, as the widget records it. */
async function anonymousArrival(body: { rewardEventName?: string } = {}) {
  const ref = await referrer();
  const res = await sdk("track-referral", { key: main.publishableKey, origin: SHOP, body: { referralCode: ref.referralCode, ...body } });
  expect(res.status, res.text).toBe(200);
  return { referrer: ref, trackingId: res.json.referralTrackingId as string };
}

const item = (id: string) => t.db.referralTracking.findUniqueOrThrow({ where: { id } });
/** The user's row with its counters. */
async function userByClientId(clientProvidedId: string, projectId = main.projectId) {
  const { counters, ...user } = await t.db.appUser.findUniqueOrThrow({
    where: { projectId_clientProvidedId: { projectId, clientProvidedId } },
    include: { counters: { omit: { appUserId: true, projectId: true } } },
  });
  return { ...user, ...counters, successfulReferrals: await countedReferrals(t.db, user.id) };
}

describe("credentials", () => {
  /** One valid call per endpoint with the given credentials. */
  const endpoints = {
    "init-app-user": async () => ({ body: { userId: uid("cred-user") } }),
    "track-referral": async () => ({ body: { referralCode: (await referrer()).referralCode } }),
    "new-user-experience": async () => ({ body: {} }),
  };

  for (const [endpoint, request] of Object.entries(endpoints)) {
    it(`${endpoint}: the publishable key and the secret pass; missing, unknown and malformed keys are 401 problems`, async () => {
      expect((await sdk(endpoint, { ...(await request()), key: main.publishableKey })).status).toBe(200);
      expect((await sdk(endpoint, { ...(await request()), key: main.secret })).status).toBe(200);
      for (const key of [undefined, "", "pk_unknown", "sk_unknown", "rl_an-api-key", main.publishableKey + "x", "pk_" + "a".repeat(500)]) {
        const res = await sdk(endpoint, { ...(await request()), key });
        expectProblem(res, 401);
        expect(res.json.type).toBe("urn:referloop:problem:unauthorized");
        expect(res.headers.get("www-authenticate")).toBe('ProjectKey realm="referloop"');
      }
      // The API key of the organisation is no project key.
      const { body } = await request();
      const res = await sdk(endpoint, { body, headers: { authorization: `Bearer ${main.secret}` } });
      expectProblem(res, 401);
      expect(res.json.detail).toContain("X-Service-ProjectSecret");
    });
  }

  it("track-reward-event takes the secret in x-project-secret-key only: a publishable key, the other header or a browser Origin is 401", async () => {
    const { trackingId } = await anonymousArrival();
    const body = { newUserId: uid("buyer"), referralTrackingId: trackingId, eventName: "purchase" };
    const before = await dataSnapshot(t.db);
    for (const [opts, says] of [
      [{ secret: main.publishableKey }, "publishable key is not enough"],
      [{ key: main.secret }, "x-project-secret-key"],
      [{}, "x-project-secret-key"],
      [{ secret: "sk_unknown" }, "not valid"],
      [{ secret: main.secret, origin: SHOP }, "backend call"],
      [{ secret: main.secret, origin: EVIL }, "backend call"],
    ] as const) {
      const res = await sdk("track-reward-event", { ...opts, body });
      expectProblem(res, 401);
      expect(res.json.detail).toContain(says);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
    expect(await dataSnapshot(t.db)).toEqual(before);
    const res = await sdk("track-reward-event", { secret: main.secret, body });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ rewardClaimed: true, status: "Completed", referralTrackingId: trackingId });
  });

  it("a key acts for its own project only: another project's codes, tracking ids and users are not found", async () => {
    const code = foreign.referrer.referralCode;
    expectProblem(await sdk("track-referral", { key: main.publishableKey, body: { referralCode: code } }), 404);
    expect((await sdk("new-user-experience", { key: main.publishableKey, body: { referralCode: code } })).json.referrerName).toBeNull();
    const init = await sdk("init-app-user", { key: main.publishableKey, body: { userId: uid("x"), referralTrackingId: foreign.trackingId } });
    expect(init.json).toMatchObject({ referralTrackingId: null, attribution: { method: "none", confidence: 0, reason: "unknown_referral" } });
    const reward = await sdk("track-reward-event", { secret: main.secret, body: { newUserId: "x", referralTrackingId: foreign.trackingId, eventName: "e" } });
    expectProblem(reward, 404);
    expect(await item(foreign.trackingId)).toMatchObject({ refereeId: null, status: "Pending" });
    // With its own key, the same calls work.
    expect((await sdk("new-user-experience", { key: foreign.publishableKey, body: { referralCode: code } })).json.referrerName).toBe("Theo");
  });

  it("rotating a key ends the old one at once; the other key is untouched", async () => {
    const project = await createSdkProject(rest, { name: "Rotating" });
    const body = { userId: uid("rot") };
    const rotated = await rest("POST", `/projects/${project.projectId}/rotate-publishable-key`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.json.publishableKey).toMatch(/^pk_/);
    expect(rotated.json.publishableKey).not.toBe(project.publishableKey);
    expectProblem(await sdk("init-app-user", { key: project.publishableKey, body }), 401);
    expect((await sdk("init-app-user", { key: rotated.json.publishableKey, body })).status).toBe(200);
    expect((await sdk("init-app-user", { key: project.secret, body })).status).toBe(200);

    const secret = await rest("POST", `/projects/${project.projectId}/rotate-secret`);
    expect(secret.status).toBe(200);
    expectProblem(await sdk("init-app-user", { key: project.secret, body }), 401);
    expect((await sdk("init-app-user", { key: secret.json.projectSecret, body })).status).toBe(200);
    expect((await sdk("init-app-user", { key: rotated.json.publishableKey, body })).status).toBe(200);
    // Another organisation cannot rotate it.
    expectProblem(await (await restClientForNewOrg(t.db))("POST", `/projects/${project.projectId}/rotate-publishable-key`), 404);
  });

  it("is reachable over REST only, not through the dashboard's tRPC endpoint", async () => {
    const { createCaller } = await import("@/server/api/root");
    const headers = new Headers({ "x-service-projectsecret": main.publishableKey });
    const { requestScope } = await import("@/server/api/trpc/context");
    const caller = createCaller({ ...(await import("@/test/config")).testServices(t.db), ...requestScope(headers), headers, via: "trpc", actor: null });
    await expect(caller.sdk.initAppUser({ userId: "u" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("browser origins and CORS", () => {
  it("an allowed origin gets its answer with Access-Control-Allow-Origin and Vary, errors included", async () => {
    const ok = await sdk("init-app-user", { key: main.publishableKey, origin: SHOP, body: { userId: uid("web") } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(ok.headers.get("vary")).toContain("Origin");
    expect(ok.headers.get("access-control-expose-headers")).toBe("Retry-After, RateLimit, RateLimit-Policy, X-Request-Id");
    // A trailing slash in the stored list was normalised away: the browser's Origin matches.
    expect((await sdk("new-user-experience", { key: main.publishableKey, origin: "http://localhost:3000", body: {} })).status).toBe(200);
    // A 404 after the origin check is readable by the page too (the widget clears a stale code on it).
    const missing = await sdk("track-referral", { key: main.publishableKey, origin: SHOP, body: { referralCode: "NoSuch" } });
    expectProblem(missing, 404);
    expect(missing.headers.get("access-control-allow-origin")).toBe(SHOP);
    const invalid = await sdk("init-app-user", { key: main.publishableKey, origin: SHOP, body: {} });
    expectProblem(invalid, 400, ["userId"]);
    expect(invalid.headers.get("access-control-allow-origin")).toBe(SHOP);
  });

  it("another origin, Origin: null, a project with no allowed origins and the secret from a browser are 401, without CORS headers, and change nothing", async () => {
    const strict = await createSdkProject(rest, { name: "No origins" });
    const code = (await referrer()).referralCode;
    const before = await dataSnapshot(t.db);
    for (const [key, origin] of [
      [main.publishableKey, EVIL],
      [main.publishableKey, "null"],
      [main.publishableKey, "https://shop.example.com:8443"],
      [main.publishableKey, "http://shop.example.com"],
      [strict.publishableKey, SHOP],
    ] as const) {
      for (const [endpoint, body] of [
        ["init-app-user", { userId: uid("blocked") }],
        ["track-referral", { referralCode: code }],
        ["new-user-experience", { referralCode: code }],
      ] as const) {
        const res = await sdk(endpoint, { key, origin, body });
        expectProblem(res, 401);
        expect(res.json.detail).toContain("allowed origins");
        expect(res.headers.get("access-control-allow-origin")).toBeNull();
      }
    }
    // The secret never belongs in a page, even on an allowed origin.
    for (const origin of [SHOP, EVIL]) {
      const res = await sdk("init-app-user", { key: main.secret, origin, body: { userId: uid("leaked") } });
      expectProblem(res, 401);
      expect(res.json.detail).toContain("must never reach a browser");
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
    expect(await dataSnapshot(t.db)).toEqual(before);
    // Without Origin (a server, a mobile app), the strict project's key works.
    expect((await sdk("init-app-user", { key: strict.publishableKey, body: { userId: uid("app") } })).status).toBe(200);
  });

  it("preflight: 204 with the CORS headers for an origin some project allows, else a 403 problem without them", async () => {
    const preflight = (origin?: string, endpoint = "init-app-user") =>
      sdk(endpoint, { method: "OPTIONS", ...(origin ? { origin } : {}), headers: { "access-control-request-method": "POST", "access-control-request-headers": "content-type,x-service-projectsecret" } });
    for (const endpoint of ["init-app-user", "track-referral", "new-user-experience"]) {
      const ok = await preflight(SHOP, endpoint);
      expect(ok.status).toBe(204);
      expect(Object.fromEntries(ok.headers)).toMatchObject({
        "access-control-allow-origin": SHOP,
        "access-control-allow-methods": "POST",
        "access-control-allow-headers": "Content-Type, X-Service-ProjectSecret",
        "access-control-max-age": "600",
        vary: "Origin",
      });
    }
    for (const origin of [EVIL, "null", undefined]) {
      const refused = await preflight(origin);
      expectProblem(refused, 403);
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
      expect(refused.headers.get("access-control-allow-methods")).toBeNull();
    }
    // An origin added in the settings is answered at once by this instance.
    const added = "https://new-shop.example.org";
    expect((await preflight(added)).status).toBe(403);
    const update = await rest("PUT", `/projects/${main.projectId}`, { body: { allowedOrigins: [SHOP, "http://localhost:3000", added] } });
    expect(update.status, update.text).toBe(200);
    expect(update.json.allowedOrigins).toEqual([SHOP, "http://localhost:3000", added]);
    expect((await preflight(added)).status).toBe(204);
  });
});

describe("bad bodies", () => {
  it("are 400 problems naming each field, after the key check", async () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      ["init-app-user", {}, ["userId"]],
      ["init-app-user", { userId: 42 }, ["userId"]],
      ["init-app-user", { userId: " " }, ["userId"]],
      ["init-app-user", { userId: "x".repeat(256) }, ["userId"]],
      ["init-app-user", { userId: "u", userHash: "not-hex" }, ["userHash"]],
      ["init-app-user", { userId: "u", attributes: { name: 7 } }, ["attributes.name"]],
      ["init-app-user", { userId: "u", referralTrackingId: "" }, ["referralTrackingId"]],
      ["init-app-user", { userId: "u", device: { os: "iOS", screenWidth: "390" } }, ["device.screenWidth"]],
      ["track-referral", {}, ["referralCode"]],
      ["track-referral", { referralCode: "AbC123", rewardEventName: " " }, ["rewardEventName"]],
      ["new-user-experience", { referralCode: 5 }, ["referralCode"]],
    ];
    for (const [endpoint, body, fields] of cases) {
      expectProblem(await sdk(endpoint, { key: main.publishableKey, body }), 400, fields);
      // A bad key with a bad body: the key is what is wrong first.
      expectProblem(await sdk(endpoint, { key: "pk_nope", body }), 401);
    }
    const reward: [Record<string, unknown>, string[]][] = [
      [{}, ["newUserId", "referralTrackingId", "eventName"]],
      [{ newUserId: "u", referralTrackingId: NO_SUCH_ID, eventName: "e", environment: "Staging" }, ["environment"]],
      [{ newUserId: "", referralTrackingId: NO_SUCH_ID, eventName: "e" }, ["newUserId"]],
    ];
    for (const [body, fields] of reward) expectProblem(await sdk("track-reward-event", { secret: main.secret, body }), 400, fields);
    expectProblem(await sdk("init-app-user", { key: main.publishableKey, rawBody: "{nope", headers: { "content-type": "application/json" } }), 400);
    expectProblem(await sdk("init-app-user", { key: main.publishableKey, rawBody: "userId=u", headers: { "content-type": "application/x-www-form-urlencoded" } }), 415);
    expectProblem(await sdk("no-such-endpoint", { key: main.publishableKey, body: {} }), 404);
  });
});

describe("track-referral", () => {
  it("creates a Pending item without a referee, counts the arrival for the referrer, returns the promo text", async () => {
    await rest("PUT", `/projects/${main.projectId}/campaign`, { body: { newUserExperience: { promoText: "10% off your first order" } } });
    const ref = await referrer();
    const res = await sdk("track-referral", { key: main.publishableKey, origin: SHOP, body: { referralCode: ref.referralCode, rewardEventName: "purchase" } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ referralTrackingId: expect.stringMatching(/^[0-9a-f-]{36}$/), promotionalText: "10% off your first order" });
    expect(await item(res.json.referralTrackingId)).toMatchObject({ status: "Pending", refereeId: null, rewardEventName: "purchase", referrerId: ref.uniqueId });
    expect(await userByClientId(ref.clientProvidedId)).toMatchObject({ totalReferralsGiven: 1, totalReferralsReceived: 0 });
    // The REST list shows it with no referee yet.
    const listed = await rest("GET", `/projects/${main.projectId}/users/${ref.uniqueId}/referrals`);
    expect(listed.json.items).toEqual([expect.objectContaining({ referralTrackingId: res.json.referralTrackingId, refereeId: null, refereeUniqueId: null })]);
  });
});

describe("new-user-experience", () => {
  it("answers the banner and the referrer's name from the campaign's attribute key; unknown codes still answer", async () => {
    await rest("PUT", `/projects/${main.projectId}/campaign`, { body: { newUserExperience: { promoText: "Welcome!", promoPosition: "bottom-left" } } });
    const ada = await referrer({ name: "Ada", nickname: "Countess" });
    const ask = (body: object) => sdk("new-user-experience", { key: main.publishableKey, body });
    const banner = { promoText: "Welcome!", promoPosition: "bottom-left" };
    expect((await ask({ referralCode: ada.referralCode })).json).toEqual({ newUserExperience: banner, referrerName: "Ada" });
    expect((await ask({})).json).toEqual({ newUserExperience: banner, referrerName: null });
    expect((await ask({ referralCode: "NoSuch" })).json).toEqual({ newUserExperience: banner, referrerName: null });
    expect((await ask({ referralCode: (await referrer()).referralCode })).json.referrerName).toBeNull();

    const campaign = await rest("PUT", `/projects/${main.projectId}/campaign`, { body: { newUserExperience: { referrerNameAttribute: "nickname" } } });
    expect(campaign.json.newUserExperience).toEqual({ ...banner, referrerNameAttribute: "nickname" });
    expect((await ask({ referralCode: ada.referralCode })).json.referrerName).toBe("Countess");
    expectProblem(await rest("PUT", `/projects/${main.projectId}/campaign`, { body: { newUserExperience: { referrerNameAttribute: "" } } }), 400, [
      "newUserExperience.referrerNameAttribute",
    ]);
    await rest("PUT", `/projects/${main.projectId}/campaign`, { body: { newUserExperience: { referrerNameAttribute: "name" } } });
  });
});

describe("init-app-user", () => {
  it("creates the user with a code and the campaign's referrer experience; calling again changes nothing but lastSeenAt and sent attributes", async () => {
    const userId = uid("Ada Lovelace/ü");
    const first = await sdk("init-app-user", { key: main.publishableKey, origin: SHOP, body: { userId, attributes: { name: "Ada" } } });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({
      id: expect.any(String),
      uniqueId: first.json.id,
      clientProvidedId: userId,
      referralCode: expect.stringMatching(/^[A-Za-z0-9]{6}$/),
      referralLink: `https://shop.example.com/join?referralCode=${first.json.referralCode}`,
      referrerExperience: expect.objectContaining({ triggerButton: { buttonType: "floating", buttonPosition: "bottom-right" } }),
      referralTrackingId: null,
      attribution: { method: "none", confidence: 0 },
    });
    const stored = await userByClientId(userId);
    expect(stored).toMatchObject({ id: first.json.id, attributes: { name: "Ada" } });

    const again = await sdk("init-app-user", { key: main.publishableKey, origin: SHOP, body: { userId } });
    expect(again.json).toEqual(first.json);
    const after = await userByClientId(userId);
    expect({ ...after, lastSeenAt: null, updatedAt: null }).toEqual({ ...stored, lastSeenAt: null, updatedAt: null });
    expect(after.lastSeenAt!.getTime()).toBeGreaterThanOrEqual(stored.lastSeenAt!.getTime());
    // The publishable key alone cannot change an existing user; with the user's hash, or the secret, it can.
    await sdk("init-app-user", { key: main.publishableKey, body: { userId, attributes: { nickname: "A" } } });
    expect((await userByClientId(userId)).attributes).toEqual({ name: "Ada" });
    await sdk("init-app-user", { key: main.publishableKey, body: { userId, userHash: userHashOf(main.secret, userId), attributes: { nickname: "A" } } });
    expect((await userByClientId(userId)).attributes).toEqual({ nickname: "A" });
    await sdk("init-app-user", { key: main.secret, body: { userId, attributes: { nickname: "B" } } });
    expect((await userByClientId(userId)).attributes).toEqual({ nickname: "B" });
    expect(await t.db.appUser.count({ where: { projectId: main.projectId, clientProvidedId: userId } })).toBe(1);
  });

  it("without a redirect link the referral link is null", async () => {
    const bare = await createSdkProject(rest, { name: "No link", referralRedirectLink: null });
    expect((await sdk("init-app-user", { key: bare.publishableKey, body: { userId: "u" } })).json.referralLink).toBeNull();
  });

  it("binds the tracking id it is passed, once: the user is the referee, counted, and a repeat is idempotent", async () => {
    const { referrer: ref, trackingId } = await anonymousArrival();
    const userId = uid("newcomer");
    const init = () => sdk("init-app-user", { key: main.publishableKey, origin: SHOP, body: { userId, referralTrackingId: trackingId } });
    const first = await init();
    expect(first.json).toMatchObject({ referralTrackingId: trackingId, attribution: { method: "cookie", confidence: 1 } });
    expect(await item(trackingId)).toMatchObject({ refereeId: first.json.id, status: "Pending" });
    expect(await userByClientId(userId)).toMatchObject({ totalReferralsReceived: 1 });
    const referralRows = () => Promise.all([t.db.referralTracking.findMany({ orderBy: { id: "asc" } }), t.db.activity.findMany({ orderBy: { id: "asc" } })]);
    const before = await referralRows();
    const verified = { userId, userHash: userHashOf(main.secret, userId) };
    const second = await sdk("init-app-user", { key: main.publishableKey, origin: SHOP, body: { ...verified, referralTrackingId: trackingId } });
    expect(second.json).toEqual(first.json);
    expect(await referralRows()).toEqual(before);
    expect(await userByClientId(userId)).toMatchObject({ totalReferralsReceived: 1 });
    // Later calls without the token still name the user's referral, to a caller that speaks for them.
    expect((await sdk("init-app-user", { key: main.publishableKey, body: verified })).json).toMatchObject({
      referralTrackingId: trackingId,
      attribution: { method: "none", confidence: 0 },
    });
    // The publishable key alone reads only what a link shows: no referral of an existing user.
    expect((await init()).json).toEqual({ ...first.json, referralTrackingId: null, attribution: { method: "none", confidence: 0, reason: "identity_not_verified" } });
    expect(await referralRows()).toEqual(before);
    const activity = await t.db.activity.findFirst({ where: { appUserId: ref.uniqueId, type: "referee_identified" } });
    expect(activity?.description).toContain(userId);
  });

  it("10 concurrent users with one tracking id: exactly one is bound, the others are told why", async () => {
    const { trackingId } = await anonymousArrival();
    const users = Array.from({ length: 10 }, (_, i) => uid(`racer${i}`));
    const results = await Promise.all(
      users.map((userId) => sdk("init-app-user", { key: main.publishableKey, origin: SHOP, body: { userId, referralTrackingId: trackingId } })),
    );
    expect(results.map((r) => r.status)).toEqual(users.map(() => 200));
    const bound = results.filter((r) => r.json.attribution.method === "cookie");
    expect(bound).toHaveLength(1);
    expect(results.filter((r) => r.json.attribution.reason === "bound_to_another_user")).toHaveLength(9);
    expect(await item(trackingId)).toMatchObject({ refereeId: bound[0]!.json.id });
    const received = await t.db.appUser.findMany({ where: { projectId: main.projectId, clientProvidedId: { in: users } }, select: { totalReferralsReceived: true } });
    expect(received.map((u) => u.totalReferralsReceived).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it("never binds a user to their own referral: self_referral, and the item waits for its real referee", async () => {
    const { referrer: ref, trackingId } = await anonymousArrival();
    const self = await sdk("init-app-user", { key: main.secret, body: { userId: ref.clientProvidedId, referralTrackingId: trackingId } });
    expect(self.status).toBe(200);
    expect(self.json).toMatchObject({ referralTrackingId: null, attribution: { method: "none", confidence: 0, reason: "self_referral" } });
    const byCode = await sdk("init-app-user", { key: main.secret, body: { userId: ref.clientProvidedId, referralCode: ref.referralCode } });
    expect(byCode.json.attribution).toEqual({ method: "none", confidence: 0, reason: "self_referral" });
    expect(await item(trackingId)).toMatchObject({ refereeId: null });
    expect(await userByClientId(ref.clientProvidedId)).toMatchObject({ totalReferralsReceived: 0 });
  });

  it("unknown tokens bind nothing and say so", async () => {
    for (const token of [{ referralTrackingId: NO_SUCH_ID }, { referralTrackingId: "not-a-uuid" }, { referralCode: "NoSuch" }]) {
      const res = await sdk("init-app-user", { key: main.publishableKey, body: { userId: uid("stale"), ...token } });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ referralTrackingId: null, attribution: { method: "none", confidence: 0, reason: "unknown_referral" } });
    }
  });

  it("a referral code alone binds through a new item, once per referrer, like the REST track", async () => {
    const ref = await referrer();
    const userId = uid("by-code");
    const init = () => sdk("init-app-user", { key: main.publishableKey, body: { userId, userHash: userHashOf(main.secret, userId), referralCode: ref.referralCode } });
    const [first, concurrent] = await Promise.all([init(), init()]);
    expect(first.json.attribution).toEqual({ method: "cookie", confidence: 1 });
    expect(concurrent.json.referralTrackingId).toBe(first.json.referralTrackingId);
    expect((await init()).json.referralTrackingId).toBe(first.json.referralTrackingId);
    const items = await t.db.referralTracking.findMany({ where: { referrerId: ref.uniqueId } });
    expect(items).toEqual([expect.objectContaining({ id: first.json.referralTrackingId, refereeId: first.json.id, status: "Pending" })]);
    expect(await userByClientId(ref.clientProvidedId)).toMatchObject({ totalReferralsGiven: 1 });
    expect(await userByClientId(userId)).toMatchObject({ totalReferralsReceived: 1 });
  });
});

describe("init-app-user with the publishable key alone (no userHash): what every page shows cannot harm users", () => {
  it("cannot replace an existing user's attributes: the banner keeps the referrer's real name", async () => {
    const grace = await referrer({ name: "Grace" });
    const attack = await sdk("init-app-user", { key: main.publishableKey, origin: SHOP, body: { userId: grace.clientProvidedId, attributes: { name: "Click evil.example.net" } } });
    expect(attack.status, attack.text).toBe(200);
    expect((await userByClientId(grace.clientProvidedId)).attributes).toEqual({ name: "Grace" });
    const banner = await sdk("new-user-experience", { key: main.publishableKey, origin: SHOP, body: { referralCode: grace.referralCode } });
    expect(banner.json.referrerName).toBe("Grace");
    // What it may read is what the link shows: the code and the link, no referral of theirs.
    expect(attack.json).toMatchObject({ id: grace.uniqueId, referralCode: grace.referralCode, referralTrackingId: null, attribution: { method: "none", confidence: 0 } });
  });

  it("cannot bind an existing user to the caller's code or tracking id, so their real referral still pays", async () => {
    const attacker = await referrer();
    const honest = await referrer();
    const victim = await createAppUserOverRest(rest, main.projectId, uid("victim"));
    const byCode = await sdk("init-app-user", { key: main.publishableKey, origin: SHOP, body: { userId: victim.clientProvidedId, referralCode: attacker.referralCode } });
    expect(byCode.status).toBe(200);
    expect(byCode.json).toMatchObject({ referralTrackingId: null, attribution: { method: "none", confidence: 0, reason: "identity_not_verified" } });
    expect(await t.db.referralTracking.count({ where: { referrerId: attacker.uniqueId } })).toBe(0);
    const arrival = await sdk("track-referral", { key: main.publishableKey, origin: SHOP, body: { referralCode: attacker.referralCode } });
    const byTracking = await sdk("init-app-user", { key: main.publishableKey, body: { userId: victim.clientProvidedId, referralTrackingId: arrival.json.referralTrackingId } });
    expect(byTracking.json.attribution).toEqual({ method: "none", confidence: 0, reason: "identity_not_verified" });
    expect(await item(arrival.json.referralTrackingId)).toMatchObject({ refereeId: null });
    expect(await userByClientId(victim.clientProvidedId)).toMatchObject({ totalReferralsReceived: 0, attributes: {} });

    // The victim's own referral: their backend binds and rewards it, and it is the first arrival.
    const theirs = await rest("POST", `/projects/${main.projectId}/referrals/track`, { body: { referralCode: honest.referralCode, refereeId: victim.clientProvidedId } });
    expect(theirs.status, theirs.text).toBe(200);
    const reward = await sdk("track-reward-event", {
      secret: main.secret,
      body: { newUserId: victim.clientProvidedId, referralTrackingId: theirs.json.referralTrackingId, eventName: "purchase" },
    });
    expect(reward.json).toMatchObject({ rewardClaimed: true });
  });

  it("may create a new user, with its attributes, and bind that new user", async () => {
    const { trackingId } = await anonymousArrival();
    const userId = uid("brand-new");
    const res = await sdk("init-app-user", { key: main.publishableKey, origin: SHOP, body: { userId, attributes: { name: "New" }, referralTrackingId: trackingId } });
    expect(res.json).toMatchObject({ referralTrackingId: trackingId, attribution: { method: "cookie", confidence: 1 } });
    expect(await userByClientId(userId)).toMatchObject({ attributes: { name: "New" }, totalReferralsReceived: 1 });
  });

  it("with a valid userHash, or the secret, changes and binds an existing user as before; a wrong hash is a 401", async () => {
    for (const how of ["userHash", "secret"] as const) {
      const ref = await referrer();
      const user = await createAppUserOverRest(rest, main.projectId, uid(`existing-${how}`), { name: "Old" });
      const body = { userId: user.clientProvidedId, attributes: { name: "New" }, referralCode: ref.referralCode };
      const res =
        how === "secret"
          ? await sdk("init-app-user", { key: main.secret, body })
          : await sdk("init-app-user", { key: main.publishableKey, origin: SHOP, body: { ...body, userHash: userHashOf(main.secret, user.clientProvidedId) } });
      expect(res.json.attribution, how).toEqual({ method: "cookie", confidence: 1 });
      expect(await userByClientId(user.clientProvidedId)).toMatchObject({ attributes: { name: "New" }, totalReferralsReceived: 1 });
    }
    const user = await createAppUserOverRest(rest, main.projectId, uid("wrong-hash"), { name: "Kept" });
    const wrong = await sdk("init-app-user", { key: main.publishableKey, body: { userId: user.clientProvidedId, userHash: userHashOf(main.secret, "someone else"), attributes: { name: "X" } } });
    expectProblem(wrong, 401);
    expect((await userByClientId(user.clientProvidedId)).attributes).toEqual({ name: "Kept" });
  });
});

describe("identity verification", () => {
  let project: Awaited<ReturnType<typeof createSdkProject>>;
  beforeAll(async () => {
    project = await createSdkProject(rest, { name: "Verified", allowedOrigins: [SHOP], identityVerification: true });
  });

  it("requires userHash = hex HMAC-SHA256(userId) under the secret with the publishable key", async () => {
    const userId = uid("verified");
    const init = (body: object, key = project.publishableKey) => sdk("init-app-user", { key, origin: SHOP, body: { userId, ...body } });
    const missing = await init({});
    expectProblem(missing, 401);
    expect(missing.json.detail).toContain("userHash");
    // Readable by the allowed page: the widget logs why.
    expect(missing.headers.get("access-control-allow-origin")).toBe(SHOP);
    expectProblem(await init({ userHash: userHashOf(project.secret, userId + "x") }), 401);
    expectProblem(await init({ userHash: userHashOf(main.secret, userId) }), 401);
    expect(await t.db.appUser.count({ where: { projectId: project.projectId } })).toBe(0);
    expect((await init({ userHash: userHashOf(project.secret, userId) })).status).toBe(200);
    expect((await init({ userHash: userHashOf(project.secret, userId).toUpperCase() })).status).toBe(200);
    // The node:crypto one-liner of the docs computes the same value.
    const { createHmac } = await import("node:crypto");
    expect((await init({ userHash: createHmac("sha256", project.secret).update(userId).digest("hex") })).status).toBe(200);
    // The secret itself is the client's backend: trusted without a hash.
    expect((await sdk("init-app-user", { key: project.secret, body: { userId: uid("backend") } })).status).toBe(200);
  });

  it("follows the current secret after a rotation, and is off unless switched on", async () => {
    const userId = uid("rotated");
    const rotated = (await rest("POST", `/projects/${project.projectId}/rotate-secret`)).json.projectSecret as string;
    expectProblem(await sdk("init-app-user", { key: project.publishableKey, body: { userId, userHash: userHashOf(project.secret, userId) } }), 401);
    expect((await sdk("init-app-user", { key: project.publishableKey, body: { userId, userHash: userHashOf(rotated, userId) } })).status).toBe(200);
    project.secret = rotated;
    // Off: no hash needed, but a hash sent is checked (a wrong one is a mistake to show, not to ignore).
    await rest("PUT", `/projects/${project.projectId}`, { body: { identityVerification: false } });
    expect((await sdk("init-app-user", { key: project.publishableKey, body: { userId: uid("free") } })).status).toBe(200);
    expectProblem(await sdk("init-app-user", { key: project.publishableKey, body: { userId: uid("free"), userHash: "0".repeat(64) } }), 401);
    const updated = await rest("PUT", `/projects/${project.projectId}`, { body: { identityVerification: true } });
    expect(updated.json.identityVerification).toBe(true);
  });

  it("cannot be switched on for a secret issued before the service kept it, until the secret is rotated", async () => {
    const legacy = await createSdkProject(rest, { name: "Legacy" });
    await t.db.project.update({ where: { id: legacy.projectId }, data: { secretEncrypted: null } });
    const refused = await rest("PUT", `/projects/${legacy.projectId}`, { body: { identityVerification: true } });
    expectProblem(refused, 409, [["identityVerification", "rotate_secret_first"]]);
    expect(refused.json.detail).toContain("Rotate the project secret");
    await rest("POST", `/projects/${legacy.projectId}/rotate-secret`);
    expect((await rest("PUT", `/projects/${legacy.projectId}`, { body: { identityVerification: true } })).status).toBe(200);
  });
});

describe("track-reward-event", () => {
  it("binds an anonymous item to newUserId and rewards it through the REST reward path, webhooks routed by environment", async () => {
    const receivers = await Promise.all(
      (["Sandbox", "Production"] as const).map(async (environment) => {
        const res = await rest("POST", `/projects/${main.projectId}/webhooks/${main.campaignId}`, {
          body: { name: environment, url: `https://hooks.example.com/${environment}`, environment },
        });
        expect(res.status, res.text).toBe(201);
        return res.json.id as string;
      }),
    );
    const { referrer: ref, trackingId } = await anonymousArrival({ rewardEventName: "purchase" });
    const newUserId = uid("buyer");
    const res = await sdk("track-reward-event", { secret: main.secret, body: { newUserId, referralTrackingId: trackingId, eventName: "purchase", environment: "sandbox" } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ rewardClaimed: true, status: "Completed", referralTrackingId: trackingId });
    const deliveries = await t.db.delivery.findMany({ where: { trackingId } });
    expect(deliveries.map((d) => d.webhookId)).toEqual([receivers[0]]);
    expect(scheduler.enqueued).toEqual(deliveries.map((d) => d.id));
    expect(deliveries[0]!.payload).toMatchObject({ event: "purchase", referrerId: ref.clientProvidedId, refereeId: newUserId });
    const referee = await userByClientId(newUserId);
    expect(referee).toMatchObject({ totalReferralsReceived: 1 });
    expect(await t.db.rewardHistory.findMany({ where: { refereeId: referee.id }, select: { referrerId: true } })).toEqual([{ referrerId: ref.uniqueId }]);
    await t.db.webhook.deleteMany({ where: { id: { in: receivers } } });

    // The same event again: already completed, nothing queued.
    scheduler.enqueued.splice(0);
    const again = await sdk("track-reward-event", { secret: main.secret, body: { newUserId, referralTrackingId: trackingId, eventName: "purchase" } });
    expect(again.json).toMatchObject({ rewardClaimed: false, reason: "already_completed", status: "Completed" });
    expect(scheduler.enqueued).toEqual([]);
  });

  it("honours Idempotency-Key like the REST reward call: a retry replays the first answer, under the same key as REST", async () => {
    const { trackingId } = await anonymousArrival();
    const body = { newUserId: uid("retrying"), referralTrackingId: trackingId, eventName: "purchase" };
    const headers = { "idempotency-key": uid("reward-key") };
    const first = await sdk("track-reward-event", { secret: main.secret, body, headers });
    expect(first.json).toMatchObject({ rewardClaimed: true, status: "Completed" });
    const retry = await sdk("track-reward-event", { secret: main.secret, body, headers });
    expect(retry.status).toBe(200);
    expect(retry.json).toEqual(first.json);
    // Without the key the same call reports a second event, which finds the item completed.
    expect((await sdk("track-reward-event", { secret: main.secret, body })).json).toMatchObject({ rewardClaimed: false, reason: "already_completed" });
    expect(await t.db.rewardEvent.count({ where: { trackingId } })).toBe(2);
    // One key names one reward whichever endpoint carries it: the same key on the REST call with another body is a 422.
    const other = await rest("POST", `/projects/${main.projectId}/referrals/reward`, { body: { referralTrackingId: trackingId, eventName: "other" }, headers });
    expectProblem(other, 422);
  });

  it("an item bound by init-app-user takes only its referee; the referrer as newUserId is self_referral; unknown ids are 404", async () => {
    const { referrer: ref, trackingId } = await anonymousArrival();
    const userId = uid("identified");
    await sdk("init-app-user", { key: main.publishableKey, body: { userId, referralTrackingId: trackingId } });
    const other = await sdk("track-reward-event", { secret: main.secret, body: { newUserId: "someone-else", referralTrackingId: trackingId, eventName: "e" } });
    expectProblem(other, 409);
    expect(other.json.detail).toContain(userId);

    const anon = await anonymousArrival();
    const self = await sdk("track-reward-event", { secret: main.secret, body: { newUserId: anon.referrer.clientProvidedId, referralTrackingId: anon.trackingId, eventName: "e" } });
    expect(self.json).toEqual({ rewardClaimed: false, status: "Pending", reason: "self_referral", referralTrackingId: anon.trackingId });
    expect(await item(anon.trackingId)).toMatchObject({ refereeId: null, status: "Pending" });

    expectProblem(await sdk("track-reward-event", { secret: main.secret, body: { newUserId: "x", referralTrackingId: NO_SUCH_ID, eventName: "e" } }), 404);
    const ok = await sdk("track-reward-event", { secret: main.secret, body: { newUserId: userId, referralTrackingId: trackingId, eventName: "e" } });
    expect(ok.json.rewardClaimed).toBe(true);
    expect(await userByClientId(ref.clientProvidedId)).toMatchObject({ successfulReferrals: 1 });
  });
});

describe("the REST reward on an item without a referee", () => {
  it("records the event without RefereeId (referee_unknown); with RefereeId it binds and rewards in one call", async () => {
    const { trackingId } = await anonymousArrival();
    const waiting = await rest("POST", `/projects/${main.projectId}/referrals/reward`, { body: { ReferralTrackingId: trackingId } });
    expect(waiting.status, waiting.text).toBe(200);
    expect(waiting.json).toEqual({ rewardClaimed: false, status: "Pending", reason: "referee_unknown", referralTrackingId: trackingId });
    expect(await item(trackingId)).toMatchObject({ refereeId: null, status: "Pending" });
    const refereeId = uid("rest-referee");
    const ok = await rest("POST", `/projects/${main.projectId}/referrals/reward`, { body: { ReferralTrackingId: trackingId, RefereeId: refereeId } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toMatchObject({ rewardClaimed: true, status: "Completed" });
    const listed = await rest("GET", `/projects/${main.projectId}/referrals?Status=Completed`);
    expect(listed.json.items).toContainEqual(expect.objectContaining({ referralTrackingId: trackingId, refereeId }));
  });
});

describe("rate limits", () => {
  it("count per key and client address: over the quota a 429 with Retry-After that an allowed page can read", async () => {
    const limited = sdkClient(t.db, { config: testConfig({ RATE_LIMIT_SDK_PER_MINUTE: "2" }) });
    const from = (address: string, key = main.publishableKey) => ({ key, origin: SHOP, body: {}, headers: { [PEER_ADDRESS_HEADER]: address } });
    for (let i = 0; i < 2; i++) expect((await limited("new-user-experience", from("198.51.100.7"))).status).toBe(200);
    const refused = await limited("new-user-experience", from("198.51.100.7"));
    expectProblem(refused, 429);
    expect(refused.json.type).toBe("urn:referloop:problem:rate-limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit-policy")).toBe('"sdk";q=2;w=60');
    expect(refused.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(refused.headers.get("access-control-expose-headers")).toContain("Retry-After");
    // Another address, and the same address with the other key of the project, have budgets of their own.
    expect((await limited("new-user-experience", from("198.51.100.8"))).status).toBe(200);
    expect((await limited("new-user-experience", { ...from("198.51.100.7", main.secret), origin: undefined })).status).toBe(200);
    // A request with a bad key is refused before it can spend anyone's budget.
    expectProblem(await limited("new-user-experience", from("198.51.100.9", "pk_unknown")), 401);
    expect((await limited("new-user-experience", from("198.51.100.9"))).status).toBe(200);
  });
});
