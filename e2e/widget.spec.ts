import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Locator, type Page, type Request } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import config from "../playwright.config";
import { QUEUE_STUB } from "../packages/js/src/hosted/queue-stub";
import type { Referloop as ReferloopApi } from "../packages/js/src/sdk";
import { createApiKey, signUp } from "./helpers";

type W = { Referloop: ReferloopApi };

/*
 * The web widget in Chromium against the real app: the app (npm start, from the Playwright config)
 * serves /sdk/v1/* and the /api/v1/sdk endpoints; a small server started here plays the client's
 * site, with its pages on http://localhost:<port> (and *.shop.test:<port> for the cookie domain), all
 * in the project's allowed origins, and its backend route /purchase, which reports the reward event
 * with the project secret. http://127.0.0.1:<port> is the same site on an origin the project does
 * not allow.
 */
const APP = config.use!.baseURL!;
const BANNER_TEXT = "Welcome! 10% off your first order.";
const TITLE = "Give 10%, get 10%";
const REDIRECT = "https://shop.example.com/join";

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
let api: APIRequestContext;
/** The project: its keys, and the REST paths below it. */
const project = { id: "", publishableKey: "", secret: "", campaignId: "" };
/** Referrers with a display name in their attributes. */
let ada: AppUser;
let zoe: AppUser;
type AppUser = { uniqueId: string; clientProvidedId: string; referralCode: string };
type Received = { headers: IncomingHttpHeaders; body: string };
const webhookDeliveries: Received[] = [];
let webhookSecret = "";

/** The client's backend: reads the attribution cookie of its own site and reports the event with the secret. */
async function purchase(cookieHeader: string, body: string): Promise<{ status: number; body: string }> {
  const cookies = new Map(cookieHeader.split(/;\s*/).map((c) => c.split("=") as [string, string]));
  const { userId } = JSON.parse(body) as { userId: string };
  const res = await fetch(`${APP}/api/v1/sdk/track-reward-event`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-project-secret-key": project.secret },
    body: JSON.stringify({ newUserId: userId, referralTrackingId: cookies.get("svc_tracked_referral"), eventName: "purchase", environment: "Production" }),
  });
  return { status: res.status, body: await res.text() };
}

test.beforeAll(async ({ browser, playwright }) => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/hooks/referloop") {
        webhookDeliveries.push({ headers: req.headers, body });
        return res.writeHead(204).end();
      }
      if (req.method === "POST" && path === "/purchase") {
        void purchase(req.headers.cookie ?? "", body).then(({ status, body: answer }) => res.writeHead(status, { "Content-Type": "application/json" }).end(answer));
        return;
      }
      const html = pages.get(path);
      res.writeHead(html ? 200 : 404, { "Content-Type": "text/html; charset=utf-8" });
      res.end(html ?? "not found");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  HOST = `http://localhost:${port}`;

  // One account, API key and project for the file; every step below is the real app.
  const page = await browser.newPage({ baseURL: APP });
  await signUp(page);
  const apiKey = await createApiKey(page);
  await page.close();
  api = await playwright.request.newContext({ baseURL: APP, extraHTTPHeaders: { Authorization: `Bearer ${apiKey}` } });
  const created = await rest("POST", "/projects", {
    name: "Widget shop",
    referralRedirectLink: REDIRECT,
    allowedOrigins: [HOST, `http://www.shop.test:${port}`, `http://app.shop.test:${port}`],
  });
  Object.assign(project, { id: created.uniqueId, publishableKey: created.publishableKey, secret: created.projectSecret, campaignId: created.campaignId });
  await setCampaign({});
  ada = await rest("POST", `/projects/${project.id}/users`, { clientProvidedId: "ada", attributes: { name: "Ada" } });
  zoe = await rest("POST", `/projects/${project.id}/users`, { clientProvidedId: "zoe", attributes: { name: "Zoe" } });
  const hook = await rest("POST", `/projects/${project.id}/webhooks/${project.campaignId}`, {
    name: "Shop backend",
    url: `http://127.0.0.1:${port}/hooks/referloop`,
    environment: "Production",
  });
  webhookSecret = hook.secret;
});
test.afterAll(async () => {
  await api?.dispose();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The REST API as the client's backend calls it; fails the test on an unexpected status. */
async function rest(method: "GET" | "POST" | "PUT", path: string, data?: object) {
  const res = await api.fetch(`/api/v1/public${path}`, { method, ...(data ? { data } : {}) });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}

function setCampaign(patch: { buttonType?: string; buttonPosition?: string; componentType?: string }) {
  return rest("PUT", `/projects/${project.id}/campaign`, {
    referrerExperience: {
      triggerButton: { buttonType: patch.buttonType ?? "floating", buttonPosition: patch.buttonPosition ?? "bottom-right" },
      modal: { componentType: patch.componentType ?? "modal", modalTitle: TITLE, modalDescription: "Share your link with friends." },
      theme: { themeColor: "#0E7490", backgroundColor: "#FFFFFF", tintColor: "#000000", tintAlpha: 0.5 },
    },
    newUserExperience: { promoText: BANNER_TEXT, promoPosition: "top-center" },
  });
}

/** The referrals tracked through a referrer's link, newest first, as the client sees them over REST. */
const referralsOf = async (user: AppUser) =>
  (await rest("GET", `/projects/${project.id}/users/${user.uniqueId}/referrals?direction=given&pageSize=100`)).items as {
    referralTrackingId: string;
    refereeId: string | null;
    status: string;
    rewardEventName: string | null;
  }[];

/**
 * A client's page: hostile CSS (the widget must not care), the queue stub, event recording, the
 * script tag, then `extra` (e.g. an inline identify that runs before the async script has loaded).
 */
function hostPage(path: string, { script = `<script src="${APP}/sdk/v1/referloop.js" data-key="${project.publishableKey}" async></script>`, extra = "" } = {}) {
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
type Call = { body: Record<string, unknown>; request: Request };

/** Records the widget's calls to the real endpoints, as the browser sends them. */
function recordSdkCalls(page: Page) {
  const calls: Record<Sdk, Call[]> = { "track-referral": [], "new-user-experience": [], "init-app-user": [] };
  page.on("request", (request) => {
    if (request.method() !== "POST" || !request.url().startsWith(`${APP}/api/v1/sdk/`)) return;
    calls[new URL(request.url()).pathname.split("/").pop() as Sdk]?.push({ body: request.postDataJSON(), request });
  });
  return calls;
}

const events = (page: Page) => page.evaluate(() => (window as unknown as { __events: [string, unknown][] }).__events);
const loaded = (page: Page) => page.waitForFunction(() => !(window as unknown as { Referloop: { q?: unknown } }).Referloop.q);
const cookie = async (page: Page, name: string, url = HOST) => (await page.context().cookies(url)).find((c) => c.name === name)?.value;

function expectCookie(cookies: Awaited<ReturnType<ReturnType<Page["context"]>["cookies"]>>, name: string, value: string, domain: string) {
  const found = cookies.find((c) => c.name === name);
  expect(found, name).toMatchObject({ value, domain, path: "/", sameSite: "Lax", secure: false, httpOnly: false });
  // 30 days from now; a minute either way for the time the test took.
  expect(Math.abs(found!.expires - (Date.now() / 1000 + 30 * 86400))).toBeLessThan(60);
}

test("a referral link arrival: both cookies, track-referral once per code, clean address bar, banner with the referrer's name dismissed for good", async ({ page }) => {
  const calls = recordSdkCalls(page);
  const path = hostPage("/landing");
  const link = `${HOST}${path}?utm_source=mail&referralCode=${ada.referralCode}&rewardEventName=purchase#offer`;
  await page.goto(link);

  const banner = page.getByRole("region", { name: "Invitation" });
  await expect(banner).toContainText("Ada invited you");
  await expect(banner).toContainText(BANNER_TEXT);
  await expect(page).toHaveURL(`${HOST}${path}?utm_source=mail#offer`);
  await expect.poll(() => cookie(page, "svc_tracked_referral")).toBeTruthy();
  const trackingId = (await cookie(page, "svc_tracked_referral"))!;
  // The real endpoint recorded one anonymous Pending arrival with the link's event.
  expect(await referralsOf(ada)).toEqual([expect.objectContaining({ referralTrackingId: trackingId, refereeId: null, status: "Pending", rewardEventName: "purchase" })]);
  expect(calls["track-referral"].map((c) => c.body)).toEqual([{ referralCode: ada.referralCode, rewardEventName: "purchase" }]);
  expect(calls["new-user-experience"].map((c) => c.body)).toEqual([{ referralCode: ada.referralCode }]);
  for (const { request } of [...calls["track-referral"], ...calls["new-user-experience"]]) {
    const headers = await request.allHeaders();
    expect(headers).toMatchObject({ "content-type": "application/json", "x-service-projectsecret": project.publishableKey, origin: HOST });
    expect(headers.cookie).toBeUndefined();
  }
  const cookies = await page.context().cookies(HOST);
  expectCookie(cookies, "svc_ref_code", ada.referralCode, "localhost");
  expectCookie(cookies, "svc_tracked_referral", trackingId, "localhost");
  expect(await events(page)).toContainEqual(["referral_tracked", { referralCode: ada.referralCode, referralTrackingId: trackingId }]);

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
  await page.goto(link);
  await expect(page).toHaveURL(`${HOST}${path}?utm_source=mail#offer`);
  await page.waitForLoadState("networkidle");
  await expect(banner).toHaveCount(0);
  expect(calls["new-user-experience"]).toHaveLength(2);
  expect(calls["track-referral"]).toHaveLength(1);
  expect(await referralsOf(ada)).toHaveLength(1);

  // Another code is a new arrival: tracked, and its banner shows with that referrer's name.
  await page.goto(`${HOST}${path}?referralCode=${zoe.referralCode}`);
  await expect(banner).toContainText("Zoe invited you");
  expect(calls["track-referral"].map((c) => c.body)).toEqual([{ referralCode: ada.referralCode, rewardEventName: "purchase" }, { referralCode: zoe.referralCode }]);
  expectCookie(await page.context().cookies(HOST), "svc_ref_code", zoe.referralCode, "localhost");
  await expect.poll(async () => (await referralsOf(zoe)).length).toBe(1);
});

test("cookie domain: attribution set on www is read on another subdomain, and identify binds the visitor as the referee", async ({ page }) => {
  const calls = recordSdkCalls(page);
  const script = `<script src="${APP}/sdk/v1/referloop.js" data-key="${project.publishableKey}" data-cookie-domain="shop.test" async></script>`;
  hostPage("/domain", { script });
  hostPage("/account", { script, extra: `<script>Referloop.identify({ userId: "u-9" })</script>` });

  await page.goto(`http://www.shop.test:${port}/domain?referralCode=${zoe.referralCode}`);
  await expect(page.getByRole("region", { name: "Invitation" })).toBeVisible();
  expectCookie(await page.context().cookies(`http://www.shop.test:${port}`), "svc_ref_code", zoe.referralCode, ".shop.test");
  await expect.poll(() => cookie(page, "svc_tracked_referral", `http://app.shop.test:${port}`)).toBeTruthy();
  const trackingId = (await cookie(page, "svc_tracked_referral", `http://app.shop.test:${port}`))!;

  await page.goto(`http://app.shop.test:${port}/account`);
  await expect(page.getByRole("button", { name: "Invite friends" })).toBeVisible();
  expect(calls["init-app-user"].map((c) => c.body)).toEqual([{ userId: "u-9", referralTrackingId: trackingId }]);
  expect(await calls["init-app-user"][0]!.request.allHeaders()).toMatchObject({ origin: `http://app.shop.test:${port}` });
  expect(await referralsOf(zoe)).toContainEqual(expect.objectContaining({ referralTrackingId: trackingId, refereeId: "u-9" }));
});

test("an identified user: button, modal, copy, focus trap, Esc and focus back; drawer; events", async ({ page }) => {
  const calls = recordSdkCalls(page);
  const grace = await rest("POST", `/projects/${project.id}/users`, { clientProvidedId: "u-42" });
  const LINK = `${REDIRECT}?referralCode=${grace.referralCode}`;
  // A stored arrival through Ada's link, tracked by the widget on an earlier visit.
  const arrival = await page.request.post(`${APP}/api/v1/sdk/track-referral`, {
    headers: { "X-Service-ProjectSecret": project.publishableKey },
    data: { referralCode: ada.referralCode },
  });
  const trackingId = ((await arrival.json()) as { referralTrackingId: string }).referralTrackingId;
  await page.context().addCookies([{ name: "svc_tracked_referral", value: trackingId, url: HOST }]);
  // Runs before the async script has loaded: the queue stub keeps it. Grace already exists, so the
  // publishable key changes her only with the hash her backend signed (identity verification).
  const userHash = createHmac("sha256", project.secret).update("u-42").digest("hex");
  hostPage("/app", { extra: `<script>Referloop.identify({ userId: "u-42", userHash: "${userHash}", attributes: { name: "Grace" } })</script>` });
  await page.goto(`${HOST}/app`);

  const trigger = page.getByRole("button", { name: "Invite friends" });
  await expect(trigger).toBeVisible();
  expect(calls["init-app-user"].map((c) => c.body)).toEqual([{ userId: "u-42", userHash, attributes: { name: "Grace" }, referralTrackingId: trackingId }]);
  expect(await calls["init-app-user"][0]!.request.allHeaders()).toMatchObject({ "x-service-projectsecret": project.publishableKey, "content-type": "application/json" });
  expect(await referralsOf(ada)).toContainEqual(expect.objectContaining({ referralTrackingId: trackingId, refereeId: "u-42" }));
  expect((await rest("GET", `/projects/${project.id}/users/${grace.uniqueId}`)).attributes).toEqual({ name: "Grace" });
  const viewport = page.viewportSize()!;
  const buttonBox = (await trigger.boundingBox())!;
  expect(viewport.width - (buttonBox.x + buttonBox.width)).toBe(16);
  expect(viewport.height - (buttonBox.y + buttonBox.height)).toBe(16);
  expect(await page.evaluate(() => (window as unknown as W).Referloop.getReferralLink())).toBe(LINK);

  // Open: a labelled modal dialog, focus on its main action.
  await trigger.click();
  const dialog = page.getByRole("dialog", { name: TITLE });
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
    // Identified with userHash: the referrer's own summary is offered (e2e/portal.spec.ts opens it).
    dialog.getByRole("button", { name: "Your referrals" }),
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
  expect((await events(page))[0]).toEqual(["ready", { referralCode: grace.referralCode, referralLink: LINK }]);

  // The campaign switched to a drawer with an edge tab: opened and closed through the API, drawn without motion when asked.
  await setCampaign({ buttonType: "edge", buttonPosition: "top-left", componentType: "drawer" });
  try {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.reload();
    const edge = page.getByRole("button", { name: "Invite friends" });
    await expect(edge).toBeVisible();
    expect((await edge.boundingBox())!.x).toBe(0);
    await page.evaluate(() => (window as unknown as W).Referloop.open());
    const drawer = page.getByRole("dialog", { name: TITLE });
    await expect(drawer).toBeVisible();
    const drawerBox = (await drawer.boundingBox())!;
    expect(drawerBox.y + drawerBox.height).toBeCloseTo(viewport.height, 0);
    expect(await drawer.evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
    await page.evaluate(() => (window as unknown as W).Referloop.close());
    await expect(drawer).toHaveCount(0);
  } finally {
    await setCampaign({});
  }
});

test("the whole referral: link, banner, sign-up, sharing, then the shop's backend reports the purchase and its webhook arrives signed", async ({ page }) => {
  const calls = recordSdkCalls(page);
  hostPage("/shop");
  hostPage("/welcome", { extra: `<script>Referloop.identify({ userId: "grace", attributes: { name: "Grace" } })</script>` });
  // A visitor follows Ada's link and dismisses the invitation.
  await page.goto(`${HOST}/shop?referralCode=${ada.referralCode}&rewardEventName=purchase`);
  const banner = page.getByRole("region", { name: "Invitation" });
  await expect(banner).toContainText("Ada invited you");
  await banner.getByRole("button", { name: "Dismiss" }).click();
  await expect.poll(() => cookie(page, "svc_tracked_referral")).toBeTruthy();
  const trackingId = (await cookie(page, "svc_tracked_referral"))!;
  await page.reload();
  await loaded(page);
  await expect(banner).toHaveCount(0);

  // She signs up: the widget binds her to Ada's referral and offers her own link.
  await page.goto(`${HOST}/welcome`);
  await page.getByRole("button", { name: "Invite friends" }).click();
  const dialog = page.getByRole("dialog", { name: TITLE });
  await dialog.getByRole("button", { name: "Copy link" }).click();
  const own = await page.evaluate(() => navigator.clipboard.readText());
  expect(own).toMatch(new RegExp(`^${REDIRECT}\\?referralCode=[A-Za-z0-9]{6}$`));
  expect(calls["track-referral"]).toHaveLength(1);
  expect(calls["init-app-user"].map((c) => c.body)).toEqual([{ userId: "grace", attributes: { name: "Grace" }, referralTrackingId: trackingId }]);

  // She buys: the shop's page calls its own backend, which reads svc_tracked_referral and reports the event with sk_.
  const answer = await page.evaluate(() =>
    fetch("/purchase", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ userId: "grace" }) }).then((r) => r.json()),
  );
  expect(answer).toMatchObject({ rewardClaimed: true, status: "Completed", referralTrackingId: trackingId });
  expect(await referralsOf(ada)).toContainEqual(expect.objectContaining({ referralTrackingId: trackingId, refereeId: "grace", status: "Completed" }));

  // The webhook arrives, signed with the webhook's secret (Standard Webhooks), naming both parties.
  await expect.poll(() => webhookDeliveries.length, { timeout: 15_000 }).toBe(1);
  const [delivery] = webhookDeliveries;
  const signed = {
    "webhook-id": String(delivery!.headers["webhook-id"]),
    "webhook-timestamp": String(delivery!.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery!.headers["webhook-signature"]),
  };
  expect(new Webhook(webhookSecret).verify(delivery!.body, signed)).toMatchObject({
    event: "purchase",
    referrerId: "ada",
    refereeId: "grace",
    trackingId,
    rewardStatus: "Completed",
    projectId: project.id,
  });
  expect(delivery!.headers.authorization).toBe(`Bearer ${webhookSecret}`);

  // Reported again (a retried request): nothing more is claimed or delivered.
  const again = await page.evaluate(() => fetch("/purchase", { method: "POST", body: JSON.stringify({ userId: "grace" }) }).then((r) => r.json()));
  expect(again).toMatchObject({ rewardClaimed: false, reason: "already_completed" });
  // A browser cannot make that call itself: the secret is refused from a page.
  const fromPage = await page.evaluate(
    ([app, secret, id]) =>
      fetch(`${app}/api/v1/sdk/track-reward-event`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "x-project-secret-key": secret! },
        body: JSON.stringify({ newUserId: "grace", referralTrackingId: id, eventName: "purchase" }),
      }).then(
        (r) => r.status,
        (e: Error) => e.name,
      ),
    [APP, project.secret, trackingId],
  );
  expect(fromPage).toBe("TypeError");
  expect(webhookDeliveries).toHaveLength(1);
});

test("a page on an origin the project does not allow gets nothing: the widget stays hidden, one prefixed warning each, nothing thrown, one global", async ({ page }) => {
  const errors: Error[] = [];
  const warnings: string[] = [];
  page.on("pageerror", (error) => errors.push(error));
  page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
  const calls = recordSdkCalls(page);
  const before = await referralsOf(ada);
  hostPage("/elsewhere", { extra: `<script>Referloop.identify({ userId: "u-1" })</script>` });
  // The same site, on http://127.0.0.1 instead of http://localhost: another origin, not in the list.
  const ELSEWHERE = `http://127.0.0.1:${port}`;
  await page.goto(`${ELSEWHERE}/elsewhere?referralCode=${ada.referralCode}`);

  await expect.poll(() => warnings.length).toBe(3);
  expect(warnings.every((w) => w.startsWith("[Referloop] "))).toBe(true);
  expect(warnings.some((w) => w.startsWith("[Referloop] init-app-user failed"))).toBe(true);
  // Retrying the same failing call warns no more.
  await page.evaluate(() => (window as unknown as W).Referloop.identify({ userId: "u-1" }));
  await expect.poll(() => calls["init-app-user"].length).toBe(2);
  await page.evaluate(() => (window as unknown as W).Referloop.open());
  await expect.poll(() => warnings.length).toBe(4);
  expect(warnings[3]).toBe("[Referloop] open needs an identified user: call identify first");

  await expect(page.locator("referloop-widget")).toHaveCount(0);
  // The server did nothing for that page: no arrival, no user.
  expect(await referralsOf(ada)).toEqual(before);
  expect((await api.get(`/api/v1/public/projects/${project.id}/users/by-user-id/u-1`)).status()).toBe(404);
  // The refused preflight: 403, no CORS headers.
  const preflight = await api.fetch("/api/v1/sdk/init-app-user", { method: "OPTIONS", headers: { Origin: ELSEWHERE, "Access-Control-Request-Method": "POST" } });
  expect(preflight.status()).toBe(403);
  expect(preflight.headers()["access-control-allow-origin"]).toBeUndefined();
  // The page still has the code for a later identify (a failed tracking is not an unknown code).
  expect(await cookie(page, "svc_ref_code", ELSEWHERE)).toBe(ada.referralCode);
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
  hostPage("/narrow", { extra: `<script>Referloop.identify({ userId: "u-3" })</script>` });
  await page.goto(`${HOST}/narrow?referralCode=${ada.referralCode}`);
  const banner = page.getByRole("region", { name: "Invitation" });
  await expect(banner).toBeVisible();
  // Polled: the widget may re-render an element (its box is null for that moment) once its data arrives.
  const inside = (locator: Locator, what: string) =>
    expect
      .poll(async () => {
        const box = await locator.boundingBox();
        return box !== null && box.x >= 0 && box.x + box.width <= 320;
      }, { message: `${what} lies within the 320 px viewport` })
      .toBe(true);
  await inside(banner, "the banner");
  await page.getByRole("button", { name: "Invite friends" }).click();
  const dialog = page.getByRole("dialog");
  await inside(dialog, "the dialog");
  for (const control of await dialog.locator("a, button, input").all()) {
    await expect(control).toBeInViewport();
    await inside(control, "a control of the dialog");
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
});

test("the ES module: init and identify by import, no global", async ({ page }) => {
  const calls = recordSdkCalls(page);
  const script = `<script type="module">import { init, identify, on } from "${APP}/sdk/v1/referloop.mjs";
on("ready", (d) => document.title = d.referralCode); init({ key: "${project.publishableKey}" }); identify({ userId: "u-5" });</script>`;
  pages.set("/module", `<!doctype html><html><head>${script}</head><body><h1>Module</h1></body></html>`);
  await page.goto(`${HOST}/module`);
  await expect(page.getByRole("button", { name: "Invite friends" })).toBeVisible();
  const user = await rest("GET", `/projects/${project.id}/users/by-user-id/u-5`);
  await expect(page).toHaveTitle(user.referralCode);
  expect(calls["init-app-user"].map((c) => c.body)).toEqual([{ userId: "u-5" }]);
  expect(await page.evaluate(() => "Referloop" in window)).toBe(false);
});

test("served by the app: brotli or gzip, strong ETag and 304, caching, CORS, nosniff", async ({ request }) => {
  const entry = await request.get("/sdk/v1/referloop.js", { headers: { "Accept-Encoding": "gzip, br" } });
  expect(entry.status()).toBe(200);
  expect(entry.headers()).toMatchObject({
    "content-type": "text/javascript; charset=utf-8",
    "content-encoding": "br",
    "cache-control": "public, max-age=300, stale-while-revalidate=86400",
    "access-control-allow-origin": "*",
    "x-content-type-options": "nosniff",
  });
  expect(entry.headers().vary).toContain("Accept-Encoding");
  const etag = entry.headers().etag!;
  expect(etag).toMatch(/^"[\w-]+-br"$/);
  expect(entry.headers()["x-request-id"]).toBeTruthy();
  expect((await request.get("/sdk/v1/referloop.js", { headers: { "Accept-Encoding": "gzip, br", "If-None-Match": etag } })).status()).toBe(304);

  const chunk = (await entry.text()).match(/"\.\/(ui-[A-Z0-9]+\.js)"/)![1];
  const ui = await request.get(`/sdk/v1/${chunk}`, { headers: { "Accept-Encoding": "gzip" } });
  expect(ui.headers()).toMatchObject({ "content-encoding": "gzip", "cache-control": "public, max-age=31536000, immutable" });
  const mjs = await request.get("/sdk/v1/referloop.mjs", { headers: { "Accept-Encoding": "identity" } });
  expect(mjs.headers()["content-type"]).toBe("text/javascript; charset=utf-8");
  expect(mjs.headers()["content-encoding"]).toBeUndefined();
  expect((await request.get("/sdk/v1/nothing.js")).status()).toBe(404);
});
