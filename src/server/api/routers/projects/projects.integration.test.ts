import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import { guardedConfig } from "@/test/config";
import { dataSnapshot } from "@/test/snapshot";
import { createAppUserOverRest, expectProblem, type RestClient, restClientForNewOrg, trackOverRest } from "@/test/rest";
import { MAX_BODY_BYTES } from "@/server/api/rest/handle-rest-request";

let t: TestDb;
let call: RestClient;
let other: RestClient;

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  other = await restClientForNewOrg(t.db);
});
afterAll(() => t.drop());

const valid = { name: "Shop", description: "Web shop", appType: "Web", referralRedirectLink: "https://shop.example.com/join" };

describe("projects over REST", () => {
  it("creates a project with 201, a one-time sk_ secret and a campaign", async () => {
    const res = await call("POST", "/projects", { body: valid });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ name: "Shop", description: "Web shop", appType: "Web", referralRedirectLink: valid.referralRedirectLink });
    expect(res.json.projectSecret).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(res.json.warning).toMatch(/only once/);
    expect(res.json.campaignId).toEqual(expect.any(String));
    const stored = await t.db.project.findUniqueOrThrow({ where: { id: res.json.uniqueId }, include: { campaign: true } });
    expect(stored.secretHash).not.toContain(res.json.projectSecret);
    expect(stored.campaign?.id).toBe(res.json.campaignId);

    const got = await call("GET", `/projects/${res.json.uniqueId}`);
    expect(got.status).toBe(200);
    expect(got.json.projectSecret).toBeUndefined();
    expect(got.json.projectSecretHint).toBe(res.json.projectSecret.slice(0, 7) + "…");
  });

  it("accepts PascalCase fields and the JSON media types of the spec", async () => {
    for (const type of ["text/json", "application/vnd.referloop+json", "application/json; charset=utf-8"]) {
      const res = await call("POST", "/projects", {
        rawBody: JSON.stringify({ Name: `Pascal ${type}`, AppType: "Mobile", App: { name: "App" } }),
        headers: { "content-type": type },
      });
      expect(res.status, type).toBe(201);
      expect(res.json).toMatchObject({ name: `Pascal ${type}`, appType: "Mobile", app: { name: "App" } });
    }
  });

  it("labels the JSON response with the negotiated media type", async () => {
    expect((await call("GET", "/projects", { headers: { accept: "text/plain" } })).headers.get("content-type")).toMatch(/^text\/plain/);
    expect((await call("GET", "/projects", { headers: { accept: "text/json" } })).headers.get("content-type")).toMatch(/^text\/json/);
    const res = await call("GET", "/projects", { headers: { accept: "text/plain" } });
    expect(Array.isArray(JSON.parse(res.text))).toBe(true);
  });

  it("lists only the caller's projects", async () => {
    await other("POST", "/projects", { body: { name: "Theirs" } });
    const mine = await call("GET", "/projects");
    expect(mine.status).toBe(200);
    expect(mine.json.map((p: { name: string }) => p.name)).not.toContain("Theirs");
    expect(mine.json.length).toBeGreaterThan(0);
  });

  it("updates name, description and redirect link, keeps the rest, and refuses to change appType", async () => {
    const { json: p } = await call("POST", "/projects", { body: valid });
    const res = await call("PUT", `/projects/${p.uniqueId}`, { body: { Name: "Renamed", referralRedirectLink: "https://shop.example.com/invite" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: "Renamed", description: "Web shop", referralRedirectLink: "https://shop.example.com/invite" });

    expect((await call("PUT", `/projects/${p.uniqueId}`, { body: { appType: "Web" } })).status).toBe(200);
    const before = await dataSnapshot(t.db);
    const change = await call("PUT", `/projects/${p.uniqueId}`, { body: { appType: "Mobile", name: "Sneaky" } });
    expect(change.status).toBe(400);
    expect(change.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(change.json.errors).toEqual([expect.objectContaining({ field: "appType", rule: "immutable" })]);
    expect(await dataSnapshot(t.db)).toBe(before);
  });

  it("deletes a project and all its data with 200 and an empty body", async () => {
    const { json: p } = await call("POST", "/projects", { body: valid });
    // A rewarded referral with its webhook: its delivery, reward event and activity entries carry no
    // foreign key to the project or the webhook.
    const hook = await call("POST", `/projects/${p.uniqueId}/webhooks/${p.campaignId}`, { body: { name: "Credits", url: "https://hooks.example.com/credits" } });
    expect(hook.status, hook.text).toBe(201);
    const referrer = await createAppUserOverRest(call, p.uniqueId, "ada");
    const tracked = await trackOverRest(call, p.uniqueId, referrer, "bob");
    const reward = await call("POST", `/projects/${p.uniqueId}/referrals/reward`, { body: { ReferralTrackingId: tracked.trackingId, EventName: "purchase" } });
    expect(reward.json).toMatchObject({ rewardClaimed: true });
    const where = { projectId: p.uniqueId };
    const rows = () => Promise.all([t.db.rewardEvent.count({ where }), t.db.activity.count({ where }), t.db.delivery.count({ where }), t.db.appUser.count({ where })]);
    const [events, entries, deliveries] = await rows();
    expect(events).toBeGreaterThan(0);
    expect(entries).toBeGreaterThan(0);
    expect(deliveries).toBeGreaterThan(0);
    const res = await call("DELETE", `/projects/${p.uniqueId}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(await t.db.campaign.count({ where: { projectId: p.uniqueId } })).toBe(0);
    expect(await rows()).toEqual([0, 0, 0, 0]);
    expect((await call("GET", `/projects/${p.uniqueId}`)).status).toBe(404);
    expect((await call("DELETE", `/projects/${p.uniqueId}`)).status).toBe(404);
  });

  it("rotates the project secret", async () => {
    const { json: p } = await call("POST", "/projects", { body: valid });
    const res = await call("POST", `/projects/${p.uniqueId}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(res.json.projectSecret).toMatch(/^sk_/);
    expect(res.json.projectSecret).not.toBe(p.projectSecret);
  });

  it("answers the responses that carry a secret with Cache-Control: no-store, and only those", async () => {
    const created = await call("POST", "/projects", { body: valid });
    expect(created.headers.get("cache-control")).toBe("no-store");
    expect((await call("POST", `/projects/${created.json.uniqueId}/rotate-secret`)).headers.get("cache-control")).toBe("no-store");
    expect((await call("GET", `/projects/${created.json.uniqueId}`)).headers.get("cache-control")).toBeNull();
  });

  it("answers 404 for another organisation's project, like an absent one, and changes nothing", async () => {
    const { json: theirs } = await other("POST", "/projects", { body: valid });
    const before = await dataSnapshot(t.db);
    for (const [method, body] of [["GET"], ["PUT", { name: "Mine now" }], ["DELETE"], ["POST", undefined]] as const) {
      const path = method === "POST" ? `/projects/${theirs.uniqueId}/rotate-secret` : `/projects/${theirs.uniqueId}`;
      const res = await call(method, path, { body });
      expect(res.status, method).toBe(404);
      expect(res.json).toMatchObject({ status: 404, type: "urn:referloop:problem:not-found" });
      const absent = await call(method, path.replace(theirs.uniqueId, "00000000-0000-0000-0000-000000000000"), { body });
      expect(absent.json.detail).toBe(res.json.detail);
    }
    expect(await dataSnapshot(t.db)).toBe(before);
  });
});

describe("bad input is a problem naming the field, and stores nothing", () => {
  const cases: [string, unknown, string, string?][] = [
    ["missing name", { appType: "Web" }, "name"],
    ["empty name", { name: "   " }, "name", "too_small"],
    ["over-long name", { name: "x".repeat(101) }, "name", "too_big"],
    ["name of the wrong type", { name: 42 }, "name", "invalid_type"],
    ["unknown appType", { name: "A", appType: "Desktop" }, "appType", "invalid_value"],
    ["redirect link with a query", { name: "A", referralRedirectLink: "https://a.example.com/?x=1" }, "referralRedirectLink"],
    ["redirect link that is not a URL", { name: "A", referralRedirectLink: "not a url" }, "referralRedirectLink", "invalid_format"],
    ["redirect link that is not http", { name: "A", referralRedirectLink: "ftp://a.example.com/" }, "referralRedirectLink"],
    ["over-long description", { name: "A", description: "d".repeat(1001) }, "description", "too_big"],
    // The landing page sends visitors to the store links and shows the icon: no other host, no icon from elsewhere.
    ["App Store link elsewhere", { name: "A", appType: "Mobile", app: { appStoreUrl: "https://evil.example.net/app/id1" } }, "app.appStoreUrl", "app_store_host"],
    ["App Store link on a look-alike host", { name: "A", appType: "Mobile", app: { appStoreUrl: "https://apps.apple.com.evil.example.net/app/id1" } }, "app.appStoreUrl", "app_store_host"],
    ["Play link elsewhere", { name: "A", appType: "Mobile", app: { playStoreUrl: "https://evil.example.net/store/apps/details?id=x" } }, "app.playStoreUrl", "play_store_host"],
    ["icon from elsewhere", { name: "A", appType: "Mobile", app: { iconUrl: "https://evil.example.net/icon.png" } }, "app.iconUrl", "uploaded_icon"],
  ];
  it.each(cases)("%s", async (_label, body, field, rule) => {
    const before = await dataSnapshot(t.db);
    const res = await call("POST", "/projects", { body });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(res.json).toMatchObject({ type: "urn:referloop:problem:validation", status: 400, instance: "/api/v1/public/projects" });
    expect(res.json.errors).toContainEqual(expect.objectContaining({ field, ...(rule ? { rule } : {}) }));
    expect(res.json.detail).toContain(field);
    expect(await dataSnapshot(t.db)).toBe(before);
  });

  it("store links on Apple's and Google's hosts pass; an icon URL other than the uploaded one is refused on update too", async () => {
    const app = { appStoreUrl: "https://apps.apple.com/app/id123", playStoreUrl: "https://play.google.com/store/apps/details?id=com.acme" };
    const created = await call("POST", "/projects", { body: { name: "Store", appType: "Mobile", app: { ...app, appStoreUrl: "https://itunes.apple.com/app/id123" } } });
    expect(created.status).toBe(201);
    const id = created.json.uniqueId;
    expect((await call("PUT", `/projects/${id}`, { body: { app } })).json.app).toMatchObject({ ...app, iconUrl: null });
    const refused = await call("PUT", `/projects/${id}`, { body: { app: { ...app, iconUrl: "https://evil.example.net/icon.png" } } });
    expectProblem(refused, 400, [["app.iconUrl", "uploaded_icon"]]);
    expect(refused.json.detail).toContain("PUT /projects/{projectId}/app/icon");
    // The uploaded icon's own URL may be sent back unchanged, or cleared.
    const uploaded = `https://app.example.com/icons/${"b".repeat(64)}.png`;
    await t.db.project.update({ where: { id }, data: { iconUrl: uploaded } });
    expect((await call("PUT", `/projects/${id}`, { body: { app: { ...app, iconUrl: uploaded } } })).json.app.iconUrl).toBe(uploaded);
    expect((await call("PUT", `/projects/${id}`, { body: { app: { ...app, iconUrl: null } } })).json.app.iconUrl).toBeNull();
  });

  it("malformed JSON is a 400 problem", async () => {
    const res = await call("POST", "/projects", { rawBody: '{"name": "x",', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.json.type).toBe("urn:referloop:problem:malformed-json");
  });

  it("a body that is not an object is a 400 problem", async () => {
    const res = await call("POST", "/projects", { rawBody: "[1,2]", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
  });

  it("an unsupported content type is a 415 problem", async () => {
    const res = await call("POST", "/projects", { rawBody: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(415);
    expect(res.json.type).toBe("urn:referloop:problem:unsupported-media-type");
  });

  it("a body over the limit is a 413 problem", async () => {
    const before = await dataSnapshot(t.db);
    const res = await call("POST", "/projects", { body: { name: "big", description: "x".repeat(MAX_BODY_BYTES) } });
    expect(res.status).toBe(413);
    expect(res.json.type).toBe("urn:referloop:problem:payload-too-large");
    expect(await dataSnapshot(t.db)).toBe(before);
  });

  it("requires https links by default", async () => {
    const inProduction = await restClientForNewOrg(t.db, { config: guardedConfig() });
    const body = { name: "A", referralRedirectLink: "http://a.example.com/join", allowedOrigins: ["https://ok.example.com", "http://a.example.com"] };
    const res = await inProduction("POST", "/projects", { body });
    expectProblem(res, 400, [
      ["referralRedirectLink", "https"],
      ["allowedOrigins.1", "https"],
    ]);
    expect(res.json.errors).toHaveLength(2);
    expect(res.json.errors[0].message).toMatch(/https/);
    expect((await call("POST", "/projects", { body })).status).toBe(201);
  });

  it("an unknown path under /api/v1 is a 404 problem, not a page", async () => {
    for (const path of ["/api/v1/public/nothing-here", "/api/v1/elsewhere", "/api/v1"]) {
      const res = await call("GET", path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    }
  });
});
