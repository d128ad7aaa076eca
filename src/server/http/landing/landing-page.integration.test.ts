import http from "node:http";
import type { AddressInfo } from "node:net";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/generated/prisma/client";
import { createAppUser } from "@/server/domain/app-users/create-app-user";
import { clipboardSecrets } from "@/server/domain/attribution/clipboard-secret";
import { CLIPBOARD_PREFIX, readClipboardToken } from "@/server/domain/attribution/clipboard-token";
import { parseInstallReferrer } from "@/server/domain/attribution/install-referrer";
import { landingPageCsp } from "@/server/http/landing/render-landing-page";
import { PEER_ADDRESS_HEADER } from "@/server/http/peer-address";
import { fromFetchRequest } from "@/server/http/api-exchange";
import { RateLimiter } from "@/server/rate-limit/rate-limiter";
import { testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";
import { createFrontDoor } from "@/server/http/front-door";
import { createLogger } from "@/server/observability/logger";
import { answerLanding, LANDING_PREFIX } from "./answer-landing";
import { MAX_CLICK_BODY, recordLandingClick } from "./record-landing-click";
import { serveLandingPage, type LandingServices } from "./serve-landing-page";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
const DESKTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const APP = {
  name: "Acme Notes",
  appStoreUrl: "https://apps.apple.com/app/id123456789",
  playStoreUrl: "https://play.google.com/store/apps/details?id=com.acme.notes",
};
/** What an upload sets (the API takes no other icon URL). */
const ICON_URL = `http://localhost/icons/${"a".repeat(64)}.png`;

let t: TestDb;
let services: LandingServices;
let f: OrgWithProject;
let code: string;

beforeAll(async () => {
  t = await createTestDb();
  services = { db: t.db, config: testConfig({ REFERLOOP_TRUSTED_PROXIES: "10.0.0.0/8" }), limiter: new RateLimiter() };
  f = await createOrgWithProject(t.db, { appType: "Mobile", app: APP, referralRedirectLink: "https://acme.example/join" });
  await t.db.project.update({ where: { id: f.project.id }, data: { iconUrl: ICON_URL } });
  code = (await createAppUser(t.db, f.org.id, f.project.id, { clientProvidedId: "ada" })).referralCode;
});
afterAll(() => t.drop());

const page = (path: string, userAgent: string, projectId = f.project.id) => {
  const [referralCode, query = ""] = path.split("?");
  return serveLandingPage(new Request(`http://localhost/r/${projectId}/${referralCode}${query ? `?${query}` : ""}`, { headers: { "user-agent": userAgent } }), services, {
    projectId,
    code: referralCode!,
  });
};
const scriptConfig = (html: string) =>
  JSON.parse(/\}\)\((\{.*\})\);<\/script>/s.exec(html)![1]!) as {
    clickUrl: string;
    clickId: string;
    platform: string;
    destinations: Record<string, string | null>;
    clipboardText: string | null;
  };
const click = (body: unknown, opts: { path?: string; userAgent?: string; peer?: string; forwardedFor?: string; referralCode?: string } = {}) => {
  const headers: Record<string, string> = { "content-type": "text/plain;charset=UTF-8", "user-agent": opts.userAgent ?? IPHONE };
  if (opts.peer !== undefined) headers[PEER_ADDRESS_HEADER] = opts.peer;
  if (opts.forwardedFor) headers["x-forwarded-for"] = opts.forwardedFor;
  const referralCode = opts.referralCode ?? code;
  return recordLandingClick(
    fromFetchRequest(new Request(`http://localhost${opts.path ?? `/r/${f.project.id}/${referralCode}/click`}`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) })),
    services,
    { projectId: f.project.id, code: referralCode },
  );
};
const iphoneScreen = { screenWidth: 390, screenHeight: 844, pixelRatio: 3, timezone: "Europe/Berlin", locale: "de-DE", maxTouchPoints: 5 };

describe("GET /r/{projectId}/{code}", () => {
  it("renders the app's page for an iPhone under its own strict CSP: App Store, the web link, a signed clipboard token", async () => {
    const res = await page(`${code}?rewardEventName=first%20order`, IPHONE);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    const nonce = /<script nonce="([^"]+)">/.exec(html)![1]!;
    expect(res.headers.get("content-security-policy")).toBe(landingPageCsp(nonce));
    expect(html).toContain("<h1>Acme Notes</h1>");
    expect(html).toContain(`<img class="icon" src="${ICON_URL}"`);
    const config = scriptConfig(html);
    expect(config.platform).toBe("ios");
    expect(config.destinations).toMatchObject({ ios: APP.appStoreUrl, desktop: null });
    expect(html).toContain(`<small class="destination">https://acme.example/join?referralCode=${code}&amp;rewardEventName=first%20order</small>`);
    expect(config.clickUrl).toBe(`/r/${f.project.id}/${code}/click?rewardEventName=first%20order`);
    expect(config.clipboardText?.startsWith(CLIPBOARD_PREFIX)).toBe(true);
    expect(readClipboardToken(config.clipboardText, clipboardSecrets(services.config).current, new Date(), 60_000)).toMatchObject({
      projectId: f.project.id,
      clickId: config.clickId,
      referralCode: code,
      rewardEventName: "first order",
    });
    // A fresh click id per view.
    expect(scriptConfig(await (await page(code, IPHONE)).text()).clickId).not.toBe(config.clickId);
  });

  it("sends Android to the Play Store with the referral and the click in its install referrer; shows desktop where the redirect link leads", async () => {
    const android = scriptConfig(await (await page(code, ANDROID)).text());
    expect(android.platform).toBe("android");
    expect(android.clipboardText).toBeNull();
    const referrer = new URL(android.destinations.android!).searchParams.get("referrer");
    expect(parseInstallReferrer(referrer)).toEqual({ referralCode: code, rewardEventName: null, clickId: android.clickId });
    const desktopHtml = await (await page(code, DESKTOP)).text();
    expect(scriptConfig(desktopHtml)).toMatchObject({ platform: "desktop", destinations: { desktop: null } });
    expect(desktopHtml).not.toContain('http-equiv="refresh"');
    expect(desktopHtml).toContain(`<a href="https://acme.example/join?referralCode=${code}" rel="noreferrer">Continue to acme.example</a>`);
  });

  it("answers one friendly 404 page for an unknown code, an unknown project, a Web project's code and a malformed link alike", async () => {
    const web = await createOrgWithProject(t.db);
    const webCode = (await createAppUser(t.db, web.org.id, web.project.id, { clientProvidedId: "w" })).referralCode;
    const bodies = [];
    for (const res of [
      await page("ZZZZZZ", IPHONE),
      await page(code, IPHONE, "00000000-0000-4000-8000-000000000000"),
      await page(webCode, IPHONE, web.project.id),
      await page("not-a-code!", IPHONE),
      await page(`${code}?rewardEventName=${"x".repeat(201)}`, IPHONE),
    ]) {
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      bodies.push((await res.text()).replace(/nonce="[^"]+"/, ""));
    }
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).toContain("This invite link does not work");
  });
});

describe("POST /r/{projectId}/{code}/click", () => {
  it("records the click with the page's fingerprint, the OS from the user agent and the connection's address", async () => {
    const clickId = crypto.randomUUID();
    const res = await click({ clickId, ...iphoneScreen }, { path: `/r/${f.project.id}/${code}/click?rewardEventName=first%20order`, peer: "::ffff:203.0.113.7" });
    expect(res.status).toBe(204);
    expect(await t.db.linkClick.findUniqueOrThrow({ where: { id: clickId } })).toMatchObject({
      projectId: f.project.id,
      referralCode: code,
      rewardEventName: "first order",
      os: "iOS",
      osVersion: "17.4",
      screenSize: "390x844@3",
      timezone: "Europe/Berlin",
      locale: "de-DE",
      ipAddress: "203.0.113.7",
      userAgent: IPHONE,
      matchedAt: null,
    });
    // The beacon again: still one row.
    expect((await click({ clickId, ...iphoneScreen }, { peer: "203.0.113.7" })).status).toBe(204);
    expect(await t.db.linkClick.count({ where: { id: clickId } })).toBe(1);
  });

  it("believes X-Forwarded-For only from a trusted proxy", async () => {
    const spoofed = crypto.randomUUID();
    await click({ clickId: spoofed }, { peer: "198.51.100.20", forwardedFor: "203.0.113.99" });
    expect((await t.db.linkClick.findUniqueOrThrow({ where: { id: spoofed } })).ipAddress).toBe("198.51.100.20");
    const proxied = crypto.randomUUID();
    await click({ clickId: proxied }, { peer: "10.1.2.3", forwardedFor: "203.0.113.99, 198.51.100.21" });
    expect((await t.db.linkClick.findUniqueOrThrow({ where: { id: proxied } })).ipAddress).toBe("198.51.100.21");
  });

  it("refuses clicks on unknown codes (404) and bodies that are not clicks (400), recording nothing", async () => {
    const before = await t.db.linkClick.count();
    expect((await click({ clickId: crypto.randomUUID() }, { referralCode: "ZZZZZZ" })).status).toBe(404);
    expect((await click("not json")).status).toBe(400);
    expect((await click({ clickId: "not-a-uuid" })).status).toBe(400);
    expect((await click({ clickId: crypto.randomUUID(), screenWidth: -1 })).status).toBe(400);
    expect((await click({ clickId: crypto.randomUUID(), pad: "x".repeat(5000) })).status).toBe(413);
    expect(await t.db.linkClick.count()).toBe(before);
  });
});

describe("through the front door (a real HTTP server)", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    const limited = { ...services, config: testConfig({ RATE_LIMIT_LANDING_CLICKS_PER_IP_PER_MINUTE: "3" }), limiter: new RateLimiter() };
    const door = createFrontDoor({
      routes: [{ path: LANDING_PREFIX, handle: (request) => answerLanding(request, limited) }],
      fallback: async (_req, res) => void res.writeHead(500).end("reached Next.js"),
      log: createLogger({ logLevel: "silent", devServer: false }),
      accessLog: false,
    });
    server = http.createServer(door);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends `chunk` as a chunked body and, unless `end`, keeps the body open: resolves with the answer as soon as it comes. */
  const post = (path: string, chunk: string, end = true) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; request: http.ClientRequest }>((resolve, reject) => {
      const request = http.request({ port, host: "127.0.0.1", method: "POST", path, headers: { "content-type": "text/plain", "user-agent": IPHONE } }, (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (c: string) => (body += c)).on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body, request }));
      });
      request.on("error", reject);
      request.write(chunk);
      if (end) request.end();
    });

  it("stops reading a click body past a few KiB and answers 413, while the client is still sending", async () => {
    // A body that never ends: the answer can only come if the server stopped reading.
    const res = await post(`/r/${f.project.id}/${code}/click`, "x".repeat(64 * 1024), false);
    res.request.destroy();
    expect(res.status).toBe(413);
    expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(JSON.parse(res.body)).toMatchObject({ status: 413, type: "urn:referloop:problem:payload-too-large", detail: `A click is at most ${MAX_CLICK_BODY} bytes.` });
  });

  it("limits clicks per client address: 429 problem with Retry-After over the quota", async () => {
    // The test above spent one of this address's three.
    const beacon = () => JSON.stringify({ clickId: crypto.randomUUID(), ...iphoneScreen });
    expect((await post(`/r/${f.project.id}/${code}/click`, beacon())).status).toBe(204);
    const last = await post(`/r/${f.project.id}/${code}/click`, beacon());
    expect(last.status).toBe(204);
    expect(last.headers["ratelimit"]).toMatch(/^"landing-click";r=0;t=\d+$/);
    const refused = await post(`/r/${f.project.id}/${code}/click`, beacon());
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ status: 429, type: "urn:referloop:problem:rate-limited", detail: expect.stringContaining("the limit is 3 per minute") });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("serves the page (GET, HEAD), the not-found page for other paths, and 405 for other methods", async () => {
    const get = await fetch(`http://127.0.0.1:${port}/r/${f.project.id}/${code}`, { headers: { "user-agent": IPHONE } });
    expect(get.status).toBe(200);
    expect(await get.text()).toContain("Acme Notes");
    expect((await fetch(`http://127.0.0.1:${port}/r/${f.project.id}/${code}`, { method: "HEAD" })).status).toBe(200);
    for (const path of [`/r/${f.project.id}`, `/r/${f.project.id}/${code}/other`, "/r/%E0%A4%A/x"]) expect((await fetch(`http://127.0.0.1:${port}${path}`)).status).toBe(404);
    const put = await fetch(`http://127.0.0.1:${port}/r/${f.project.id}/${code}/click`, { method: "PUT", body: "{}" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("POST");
  });
});

describe("speed, by database round trips (no timing)", () => {
  it("reads once to render the page and writes once to record the click", async () => {
    if (!t.url) return; // statement counting needs PostgreSQL
    const counted = new PrismaClient({ adapter: new PrismaPg({ connectionString: t.url }), log: [{ emit: "event", level: "query" }] });
    const statements: string[] = [];
    counted.$on("query", (e) => statements.push(e.query));
    try {
      const counting = { ...services, db: counted };
      await counted.$queryRaw`SELECT 1`; // connect first
      statements.length = 0;
      const res = await serveLandingPage(new Request(`http://localhost/r/${f.project.id}/${code}`, { headers: { "user-agent": IPHONE } }), counting, {
        projectId: f.project.id,
        code,
      });
      expect(res.status).toBe(200);
      expect(statements).toHaveLength(1);
      statements.length = 0;
      const beacon = new Request(`http://localhost/r/${f.project.id}/${code}/click`, { method: "POST", body: JSON.stringify({ clickId: crypto.randomUUID() }) });
      expect((await recordLandingClick(fromFetchRequest(beacon), counting, { projectId: f.project.id, code })).status).toBe(204);
      expect(statements).toHaveLength(1);
    } finally {
      await counted.$disconnect();
    }
  });
});
