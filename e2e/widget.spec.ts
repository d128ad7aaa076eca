import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import config from "../playwright.config";
import { QUEUE_STUB } from "../src/sdk/web/queue-stub";
import type { Referloop as ReferloopApi } from "../src/sdk/web/sdk";

type W = { Referloop: ReferloopApi };

/*
 * The web widget in Chromium, loaded by a client's page on another origin: the app (next start, from
 * the Playwright config) serves /sdk/v1/*, and a tiny static server started here serves the host pages
 * on http://localhost:<port> (and *.shop.test:<port> for the cookie domain).
 */
const APP = config.use!.baseURL!;
const KEY = "pk_test_widget";
const LINK = "https://shop.example.com/join?referralCode=Gr4ce1";
const TRACKING_ID = "5f0c7e42-4f3a-4c5e-9a77-0b8a1c2d3e4f";

test.use({
  launchOptions: {
    ...config.use!.launchOptions,
    args: [...(config.use!.launchOptions!.args ?? []), "--host-resolver-rules=MAP *.shop.test 127.0.0.1"],
  },
});

const pages = new Map<string, string>();
let server: Server;
let port = 0;
let HOST = "";

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const html = pages.get(new URL(req.url ?? "/", "http://x").pathname);
    res.writeHead(html ? 200 : 404, { "Content-Type": "text/html; charset=utf-8" });
    res.end(html ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  HOST = `http://localhost:${port}`;
});
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * A client's page: hostile CSS (the widget must not care), the queue stub, event recording, the
 * script tag, then `extra` (e.g. an inline identify that runs before the async script has loaded).
 */
function hostPage(path: string, { script = `<script src="${APP}/sdk/v1/referloop.js" data-key="${KEY}" async></script>`, extra = "" } = {}) {
  pages.set(
    path,
    `<!doctype html><html><head><meta name="viewport" content="width=device-width,initial-scale=1"><title>Shop</title>
<style>body{font:40px/5 serif;color:red;text-transform:uppercase} button,a,div,p{display:none!important}</style>
<script>window.__events=[];window.__before=Object.keys(window).concat("__before")</script>
${QUEUE_STUB}
<script>["ready","referral_tracked","open","share","close"].forEach(function(e){Referloop.on(e,function(d){__events.push([e,d===undefined?null:d])})})</script>
${script}
${extra}
</head><body><h1>Shop</h1><input aria-label="Page search"></body></html>`,
  );
  return path;
}

type Sdk = "track-referral" | "new-user-experience" | "init-app-user";
type Call = { body: Record<string, unknown>; headers: Record<string, string> };

const referrerExperience = (patch: { buttonType?: string; buttonPosition?: string; componentType?: string } = {}) => ({
  triggerButton: { buttonType: patch.buttonType ?? "floating", buttonPosition: patch.buttonPosition ?? "bottom-right" },
  modal: { componentType: patch.componentType ?? "modal", modalTitle: "Give 10%, get 10%", modalDescription: "Share your link with friends." },
  theme: { themeColor: "#0E7490", backgroundColor: "#FFFFFF", tintColor: "#000000", tintAlpha: 0.5 },
});

/**
 * CONTRACT FAKES, to be replaced by the real /api/v1/sdk endpoints (server side built in parallel): they
 * answer exactly the shapes of coord/SDK-CONTRACT.md, including CORS for the page's origin, and record
 * what the widget sent so the tests can check it.
 */
async function fakeSdkApi(page: Page, { fail = {}, experience = referrerExperience() }: { fail?: Partial<Record<Sdk, number>>; experience?: object } = {}) {
  const calls: Record<Sdk, Call[]> = { "track-referral": [], "new-user-experience": [], "init-app-user": [] };
  await page.route(`${APP}/api/v1/sdk/*`, async (route) => {
    const request = route.request();
    const cors = { "Access-Control-Allow-Origin": request.headers()["origin"] ?? "", Vary: "Origin" };
    if (request.method() === "OPTIONS") {
      const preflight = { "Access-Control-Allow-Methods": "POST", "Access-Control-Allow-Headers": "Content-Type, X-Service-ProjectSecret", "Access-Control-Max-Age": "600" };
      return route.fulfill({ status: 204, headers: { ...cors, ...preflight } });
    }
    const endpoint = new URL(request.url()).pathname.split("/").pop() as Sdk;
    calls[endpoint].push({ body: request.postDataJSON(), headers: { ...(await request.allHeaders()), method: request.method() } });
    const status = fail[endpoint];
    if (status) {
      const problem = { type: "urn:referloop:problem:unauthorized", title: "Unauthorized", status, detail: "The project key was refused." };
      return route.fulfill({ status, headers: cors, contentType: "application/problem+json", body: JSON.stringify(problem) });
    }
    const json = (body: object) => route.fulfill({ status: 200, headers: cors, contentType: "application/json", body: JSON.stringify(body) });
    if (endpoint === "track-referral") return json({ referralTrackingId: TRACKING_ID, promotionalText: "Welcome! 10% off your first order." });
    if (endpoint === "new-user-experience") {
      return json({ newUserExperience: { promoText: "Welcome! 10% off your first order.", promoPosition: "top-center" }, referrerName: "Ada" });
    }
    return json({
      id: "0b7e6f0e-1111-4e5b-9c3d-2a1b0c9d8e7f",
      uniqueId: "0b7e6f0e-1111-4e5b-9c3d-2a1b0c9d8e7f",
      clientProvidedId: (request.postDataJSON() as { userId: string }).userId,
      referralCode: "Gr4ce1",
      referralLink: LINK,
      referrerExperience: experience,
      referralTrackingId: null,
      attribution: { method: "cookie", confidence: 1 },
    });
  });
  return calls;
}

const events = (page: Page) => page.evaluate(() => (window as unknown as { __events: [string, unknown][] }).__events);
const loaded = (page: Page) => page.waitForFunction(() => !(window as unknown as { Referloop: { q?: unknown } }).Referloop.q);

function expectCookie(cookies: Awaited<ReturnType<ReturnType<Page["context"]>["cookies"]>>, name: string, value: string, domain: string) {
  const cookie = cookies.find((c) => c.name === name);
  expect(cookie, name).toMatchObject({ value, domain, path: "/", sameSite: "Lax", secure: false, httpOnly: false });
  // 30 days from now; a minute either way for the time the test took.
  expect(Math.abs(cookie!.expires - (Date.now() / 1000 + 30 * 86400))).toBeLessThan(60);
}

test("a referral link arrival: both cookies, track-referral once per code, clean address bar, banner dismissed for good", async ({ page }) => {
  const calls = await fakeSdkApi(page);
  const path = hostPage("/landing");
  const link = `${HOST}${path}?utm_source=mail&referralCode=AbC123&rewardEventName=purchase#offer`;
  await page.goto(link);

  const banner = page.getByRole("region", { name: "Invitation" });
  await expect(banner).toContainText("Ada invited you");
  await expect(banner).toContainText("Welcome! 10% off your first order.");
  await expect(page).toHaveURL(`${HOST}${path}?utm_source=mail#offer`);
  expect(calls["track-referral"].map((c) => c.body)).toEqual([{ referralCode: "AbC123", rewardEventName: "purchase" }]);
  expect(calls["new-user-experience"].map((c) => c.body)).toEqual([{ referralCode: "AbC123" }]);
  for (const { headers } of [...calls["track-referral"], ...calls["new-user-experience"]]) {
    expect(headers).toMatchObject({ method: "POST", "content-type": "application/json", "x-service-projectsecret": KEY, origin: HOST });
    expect(headers.cookie).toBeUndefined();
  }
  const cookies = await page.context().cookies(HOST);
  expectCookie(cookies, "svc_ref_code", "AbC123", "localhost");
  expectCookie(cookies, "svc_tracked_referral", TRACKING_ID, "localhost");
  expect(await events(page)).toContainEqual(["referral_tracked", { referralCode: "AbC123", referralTrackingId: TRACKING_ID }]);

  // top-center, and the page's CSS changed nothing inside.
  const box = (await banner.boundingBox())!;
  expect(box.y).toBe(16);
  expect(Math.abs(box.x + box.width / 2 - page.viewportSize()!.width / 2)).toBeLessThanOrEqual(1);
  expect(await banner.evaluate((el) => getComputedStyle(el).fontSize)).toBe("15px");

  // A reload: no code in the address bar any more, so no banner and no second tracking.
  await page.reload();
  await loaded(page);
  await page.waitForLoadState("networkidle");
  await expect(banner).toHaveCount(0);
  expect(calls["track-referral"]).toHaveLength(1);

  // The same link again: the cookie says it was tracked for this code; the banner shows until dismissed.
  await page.goto(link);
  await expect(banner).toBeVisible();
  await banner.getByRole("button", { name: "Dismiss" }).click();
  await expect(banner).toHaveCount(0);
  expect(calls["track-referral"]).toHaveLength(1);
  await page.goto(link);
  await expect(page).toHaveURL(`${HOST}${path}?utm_source=mail#offer`);
  await page.waitForLoadState("networkidle");
  await expect(banner).toHaveCount(0);
  expect(calls["new-user-experience"]).toHaveLength(2);
  expect(calls["track-referral"]).toHaveLength(1);

  // Another code is a new arrival: tracked, and its banner shows.
  await page.goto(`${HOST}${path}?referralCode=Zz9Yy8`);
  await expect(banner).toBeVisible();
  expect(calls["track-referral"].map((c) => c.body)).toEqual([{ referralCode: "AbC123", rewardEventName: "purchase" }, { referralCode: "Zz9Yy8" }]);
  expectCookie(await page.context().cookies(HOST), "svc_ref_code", "Zz9Yy8", "localhost");
});

test("cookie domain: attribution set on www is read on another subdomain and sent by identify", async ({ page }) => {
  const calls = await fakeSdkApi(page);
  const script = `<script src="${APP}/sdk/v1/referloop.js" data-key="${KEY}" data-cookie-domain="shop.test" async></script>`;
  hostPage("/domain", { script });
  hostPage("/account", { script, extra: `<script>Referloop.identify({ userId: "u-9" })</script>` });

  await page.goto(`http://www.shop.test:${port}/domain?referralCode=AbC123`);
  await expect(page.getByRole("region", { name: "Invitation" })).toBeVisible();
  const cookies = await page.context().cookies(`http://www.shop.test:${port}`);
  expectCookie(cookies, "svc_ref_code", "AbC123", ".shop.test");
  await expect.poll(async () => (await page.context().cookies(`http://app.shop.test:${port}`)).find((c) => c.name === "svc_tracked_referral")?.value).toBe(TRACKING_ID);

  await page.goto(`http://app.shop.test:${port}/account`);
  await expect(page.getByRole("button", { name: "Invite friends" })).toBeVisible();
  expect(calls["init-app-user"].map((c) => c.body)).toEqual([{ userId: "u-9", referralTrackingId: TRACKING_ID }]);
});

test("an identified user: button, modal, copy, focus trap, Esc and focus back; drawer; events", async ({ page }) => {
  const calls = await fakeSdkApi(page);
  await page.context().addCookies([{ name: "svc_tracked_referral", value: TRACKING_ID, url: HOST }]);
  // Runs before the async script has loaded: the queue stub keeps it.
  hostPage("/app", { extra: `<script>Referloop.identify({ userId: "u-42", userHash: "abc123", attributes: { name: "Grace" } })</script>` });
  await page.goto(`${HOST}/app`);

  const trigger = page.getByRole("button", { name: "Invite friends" });
  await expect(trigger).toBeVisible();
  expect(calls["init-app-user"].map((c) => c.body)).toEqual([{ userId: "u-42", userHash: "abc123", attributes: { name: "Grace" }, referralTrackingId: TRACKING_ID }]);
  expect(calls["init-app-user"][0]!.headers).toMatchObject({ "x-service-projectsecret": KEY, "content-type": "application/json" });
  const viewport = page.viewportSize()!;
  const buttonBox = (await trigger.boundingBox())!;
  expect(viewport.width - (buttonBox.x + buttonBox.width)).toBe(16);
  expect(viewport.height - (buttonBox.y + buttonBox.height)).toBe(16);
  expect(await page.evaluate(() => (window as unknown as W).Referloop.getReferralLink())).toBe(LINK);

  // Open: a labelled modal dialog, focus on its main action.
  await trigger.click();
  const dialog = page.getByRole("dialog", { name: "Give 10%, get 10%" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expect(dialog).toHaveAccessibleDescription("Share your link with friends.");
  await expect(dialog.getByRole("textbox", { name: "Your referral link" })).toHaveValue(LINK);
  const copy = dialog.getByRole("button", { name: "Copy link" });
  await expect(copy).toBeFocused();

  // Copy, with visible feedback; the clipboard holds the link.
  await copy.click();
  await expect(dialog.getByRole("status")).toHaveText("Link copied to the clipboard.");
  await expect(dialog.getByRole("button", { name: "Copied!" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(LINK);

  // Share targets carry the link.
  await expect(dialog.getByRole("link", { name: "Share on X" })).toHaveAttribute("href", `https://x.com/intent/post?url=${encodeURIComponent(LINK)}`);
  await expect(dialog.getByRole("link", { name: "Share on WhatsApp" })).toHaveAttribute("href", `https://wa.me/?text=${encodeURIComponent(LINK)}`);
  await expect(dialog.getByRole("link", { name: "Share by e-mail" })).toHaveAttribute("href", /^mailto:\?subject=.+&body=https%3A%2F%2Fshop\.example\.com/);
  for (const name of ["Share on Facebook", "Share on LinkedIn", "Share on Telegram"]) await expect(dialog.getByRole("link", { name })).toBeVisible();

  // Tab goes through every control and wraps around; Shift+Tab wraps back. Focus never leaves the dialog.
  const order = [
    dialog.getByRole("link", { name: "Share on X" }),
    dialog.getByRole("link", { name: "Share on Facebook" }),
    dialog.getByRole("link", { name: "Share on LinkedIn" }),
    dialog.getByRole("link", { name: "Share on WhatsApp" }),
    dialog.getByRole("link", { name: "Share on Telegram" }),
    dialog.getByRole("link", { name: "Share by e-mail" }),
    ...((await page.evaluate(() => "share" in navigator)) ? [dialog.getByRole("button", { name: "More…" })] : []),
    dialog.getByRole("button", { name: "Close" }),
    dialog.getByRole("textbox", { name: "Your referral link" }),
    dialog.getByRole("button", { name: /Copy link|Copied!/ }),
  ];
  for (const control of order) {
    await page.keyboard.press("Tab");
    await expect(control).toBeFocused();
  }
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();

  // Esc closes, and focus is back on the button that opened it.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(trigger).toBeFocused();
  await expect(trigger).toHaveAttribute("aria-expanded", "false");

  // The backdrop closes too.
  await trigger.click();
  await expect(dialog).toBeVisible();
  await page.mouse.click(5, 5);
  await expect(dialog).toHaveCount(0);
  expect((await events(page)).map(([name]) => name)).toEqual(["ready", "open", "share", "close", "open", "close"]);
  expect((await events(page))[0]).toEqual(["ready", { referralCode: "Gr4ce1", referralLink: LINK }]);

  // A drawer with an edge tab, opened and closed through the API, drawn without motion when asked.
  await page.unrouteAll();
  await fakeSdkApi(page, { experience: referrerExperience({ buttonType: "edge", buttonPosition: "top-left", componentType: "drawer" }) });
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.reload();
  const edge = page.getByRole("button", { name: "Invite friends" });
  await expect(edge).toBeVisible();
  expect((await edge.boundingBox())!.x).toBe(0);
  await page.evaluate(() => (window as unknown as W).Referloop.open());
  const drawer = page.getByRole("dialog", { name: "Give 10%, get 10%" });
  await expect(drawer).toBeVisible();
  const drawerBox = (await drawer.boundingBox())!;
  expect(drawerBox.y + drawerBox.height).toBeCloseTo(viewport.height, 0);
  expect(await drawer.evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
  await page.evaluate(() => (window as unknown as W).Referloop.close());
  await expect(drawer).toHaveCount(0);
});

test("API failures: nothing thrown into the page, the widget stays hidden, one prefixed warning each, one global", async ({ page }) => {
  const errors: Error[] = [];
  const warnings: string[] = [];
  page.on("pageerror", (error) => errors.push(error));
  page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
  const calls = await fakeSdkApi(page, { fail: { "track-referral": 500, "new-user-experience": 503, "init-app-user": 401 } });
  hostPage("/broken", { extra: `<script>Referloop.identify({ userId: "u-1" })</script>` });
  await page.goto(`${HOST}/broken?referralCode=AbC123`);

  await expect.poll(() => warnings.length).toBe(3);
  expect(warnings.every((w) => w.startsWith("[Referloop] "))).toBe(true);
  expect(warnings.find((w) => w.includes("init-app-user"))).toBe("[Referloop] init-app-user failed: 401 The project key was refused.");
  // Retrying the same failing call warns no more.
  await page.evaluate(() => (window as unknown as W).Referloop.identify({ userId: "u-1" }));
  await expect.poll(() => calls["init-app-user"].length).toBe(2);
  await page.evaluate(() => (window as unknown as W).Referloop.open());
  await expect.poll(() => warnings.length).toBe(4);
  expect(warnings[3]).toBe("[Referloop] open needs an identified user: call identify first");

  await expect(page.locator("referloop-widget")).toHaveCount(0);
  // The page still has the code for a later identify (a failed tracking is not an unknown code).
  expect((await page.context().cookies(HOST)).find((c) => c.name === "svc_ref_code")?.value).toBe("AbC123");
  // Bad calls by the page's own code are warnings too, not exceptions.
  await page.evaluate(() => ((window as unknown as W).Referloop.identify as (o?: unknown) => void)(undefined));
  await expect.poll(() => warnings.length).toBe(5);
  const added = await page.evaluate(() => Object.keys(window).filter((k) => !(window as unknown as { __before: string[] }).__before.includes(k)));
  expect(added).toEqual(["Referloop"]);
  expect(errors).toEqual([]);
});

test("the UI chunk failing to load: a warning, nothing drawn, nothing thrown", async ({ page }) => {
  const errors: Error[] = [];
  const warnings: string[] = [];
  page.on("pageerror", (error) => errors.push(error));
  page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
  await fakeSdkApi(page);
  await page.route(`${APP}/sdk/v1/ui-*`, (route) => route.fulfill({ status: 404, body: "gone" }));
  hostPage("/no-ui", { extra: `<script>Referloop.identify({ userId: "u-2" })</script>` });
  await page.goto(`${HOST}/no-ui`);
  await expect.poll(() => warnings.length).toBe(1);
  expect(warnings[0]).toMatch(/^\[Referloop\] the widget UI could not be loaded/);
  await expect(page.getByRole("button", { name: "Invite friends" })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("320 px wide: banner and modal fit, nothing scrolls sideways", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await fakeSdkApi(page);
  hostPage("/narrow", { extra: `<script>Referloop.identify({ userId: "u-3" })</script>` });
  await page.goto(`${HOST}/narrow?referralCode=AbC123`);
  const banner = page.getByRole("region", { name: "Invitation" });
  await expect(banner).toBeVisible();
  const inside = async (box: { x: number; width: number } | null) => {
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(320);
  };
  await inside(await banner.boundingBox());
  await page.getByRole("button", { name: "Invite friends" }).click();
  const dialog = page.getByRole("dialog");
  await inside(await dialog.boundingBox());
  for (const control of await dialog.locator("a, button, input").all()) {
    await expect(control).toBeInViewport();
    await inside(await control.boundingBox());
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
});

test("the ES module: init and identify by import, no global", async ({ page }) => {
  const calls = await fakeSdkApi(page);
  const script = `<script type="module">import { init, identify, on } from "${APP}/sdk/v1/referloop.mjs";
on("ready", (d) => document.title = d.referralCode); init({ key: "${KEY}" }); identify({ userId: "u-5" });</script>`;
  pages.set("/module", `<!doctype html><html><head>${script}</head><body><h1>Module</h1></body></html>`);
  await page.goto(`${HOST}/module`);
  await expect(page.getByRole("button", { name: "Invite friends" })).toBeVisible();
  await expect(page).toHaveTitle("Gr4ce1");
  expect(calls["init-app-user"].map((c) => c.body)).toEqual([{ userId: "u-5" }]);
  expect(await page.evaluate(() => "Referloop" in window)).toBe(false);
});

test("served by the app: gzipped, strong ETag and 304, caching, CORS, nosniff", async ({ request }) => {
  const entry = await request.get("/sdk/v1/referloop.js", { headers: { "Accept-Encoding": "gzip, br" } });
  expect(entry.status()).toBe(200);
  expect(entry.headers()).toMatchObject({
    "content-type": "text/javascript; charset=utf-8",
    "content-encoding": "gzip",
    "cache-control": "public, max-age=300, stale-while-revalidate=86400",
    "access-control-allow-origin": "*",
    "x-content-type-options": "nosniff",
  });
  expect(entry.headers().vary).toContain("Accept-Encoding");
  const etag = entry.headers().etag!;
  expect(etag).toMatch(/^"[\w-]+-gz"$/);
  expect((await request.get("/sdk/v1/referloop.js", { headers: { "Accept-Encoding": "gzip, br", "If-None-Match": etag } })).status()).toBe(304);

  const chunk = (await entry.text()).match(/"\.\/(ui-[A-Z0-9]+\.js)"/)![1];
  const ui = await request.get(`/sdk/v1/${chunk}`, { headers: { "Accept-Encoding": "gzip" } });
  expect(ui.headers()).toMatchObject({ "content-encoding": "gzip", "cache-control": "public, max-age=31536000, immutable" });
  const mjs = await request.get("/sdk/v1/referloop.mjs", { headers: { "Accept-Encoding": "identity" } });
  expect(mjs.headers()["content-type"]).toBe("text/javascript; charset=utf-8");
  expect(mjs.headers()["content-encoding"]).toBeUndefined();
  expect((await request.get("/sdk/v1/nothing.js")).status()).toBe(404);
});
