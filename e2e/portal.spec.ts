import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import config from "../playwright.config";
import { QUEUE_STUB } from "../packages/js/src/hosted/queue-stub";
import { createApiKey, signUp } from "./helpers";

/*
 * The referrer's own page in Chromium against the production build: the hosted page of a portal
 * session at desktop and phone widths, light and dark, with axe; framed from an allowed origin and
 * refused to another; a tampered session's page; and the widget's "Your referrals" view on a page of
 * another origin (a small server here plays the client's site).
 */
const APP = config.use!.baseURL!;
let api: APIRequestContext;
let server: Server;
let SITE = "";
/** The same site on an origin the project does not allow. */
let OTHER = "";
const pages = new Map<string, string>();
const project = { id: "", publishableKey: "", secret: "" };
let ada = { uniqueId: "", referralCode: "" };

async function rest(method: "GET" | "POST" | "PUT", path: string, data?: object) {
  const res = await api.fetch(`/api/v1/public${path}`, { method, ...(data ? { data } : {}) });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}

const mint = async (expiresInSeconds = 3600) => (await rest("POST", `/projects/${project.id}/users/${ada.uniqueId}/portal-sessions`, { expiresInSeconds })) as { url: string; token: string };

test.beforeAll(async ({ browser, playwright }) => {
  server = createServer((req, res) => {
    const html = pages.get(new URL(req.url ?? "/", "http://x").pathname);
    res.writeHead(html ? 200 : 404, { "Content-Type": "text/html; charset=utf-8" }).end(html ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  SITE = `http://localhost:${port}`;
  OTHER = `http://127.0.0.1:${port}`;

  const page = await browser.newPage({ baseURL: APP });
  await signUp(page);
  const apiKey = await createApiKey(page);
  await page.close();
  api = await playwright.request.newContext({ baseURL: APP, extraHTTPHeaders: { Authorization: `Bearer ${apiKey}` } });
  const created = await rest("POST", "/projects", { name: "Portal shop", referralRedirectLink: "https://shop.example.com/join", allowedOrigins: [SITE] });
  Object.assign(project, { id: created.uniqueId, publishableKey: created.publishableKey, secret: created.projectSecret });
  await rest("PUT", `/projects/${project.id}/campaign`, {
    referrerExperience: { modal: { modalTitle: "Give 10 €, get 10 €", modalDescription: "Share your link with friends." }, theme: { themeColor: "#0E7490" } },
    milestones: [{ referrals: 1, name: "Bronze" }, { referrals: 3, name: "Silver" }],
    portal: { friendNameAttribute: "name" },
  });
  ada = await rest("POST", `/projects/${project.id}/users`, { clientProvidedId: "ada", attributes: { name: "Ada" } });
  for (const name of ["Grace", "Linus", "Barbara"]) {
    await rest("POST", `/projects/${project.id}/users`, { clientProvidedId: name.toLowerCase(), attributes: { name } });
    const tracked = await rest("POST", `/projects/${project.id}/referrals/track`, { referralCode: ada.referralCode, refereeId: name.toLowerCase() });
    if (name !== "Barbara") await rest("POST", `/projects/${project.id}/referrals/reward`, { referralTrackingId: tracked.referralTrackingId });
  }
});
test.afterAll(async () => {
  await api?.dispose();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Every request the page makes must go to the app itself: no third-party requests. */
function watchRequests(page: Page) {
  const foreign: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.protocol !== "data:" && url.origin !== APP && url.origin !== SITE) foreign.push(r.url());
  });
  return foreign;
}

async function expectAxeClean(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  expect(violations.map((v) => `${what}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

for (const [label, viewport] of [
  ["desktop", { width: 1280, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`the hosted page on ${label}, ${colorScheme}: link, totals, friends, rewards, milestones; axe-clean, nothing third-party`, async ({ browser }) => {
      const context = await browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      const foreign = watchRequests(page);
      const { url } = await mint();
      const res = await page.goto(url);
      expect(res!.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1, name: "Give 10 €, get 10 €" })).toBeVisible();
      await expect(page.getByRole("textbox", { name: "Your referral link" })).toHaveValue(`https://shop.example.com/join?referralCode=${ada.referralCode}`);
      const totals = page.getByRole("region", { name: "Your friends so far" });
      await expect(totals.getByText("Rewarded")).toBeVisible();
      const friends = page.getByRole("region", { name: "Friends you invited" });
      await expect(friends.getByText("Grace")).toBeVisible();
      await expect(friends.getByText("Joined")).toBeVisible();
      await expect(page.getByRole("region", { name: "Rewards earned: 2" })).toBeVisible();
      await expect(page.getByText("1 more to reach Silver.")).toBeVisible();
      // Nothing wider than the screen on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.getByRole("button", { name: "Copy link" }).click();
      await expect(page.getByRole("status")).toHaveText("Link copied to the clipboard.");
      await expectAxeClean(page, `${label} ${colorScheme}`);
      expect(foreign).toEqual([]);
      await context.close();
    });
  }
}

test("framing: the project's allowed origin may frame the page, another origin may not; a tampered session is a plain 401 page", async ({ page }) => {
  const { url } = await mint();
  pages.set("/frame", `<!doctype html><html lang="en"><head><title>Frame</title></head><body><iframe title="Your referrals" src="${url}" width="600" height="600"></iframe></body></html>`);
  await page.goto(`${SITE}/frame`);
  await expect(page.frameLocator("iframe").getByRole("heading", { level: 1 })).toHaveText("Give 10 €, get 10 €");

  const blocked: string[] = [];
  page.on("console", (m) => blocked.push(m.text()));
  await page.goto(`${OTHER}/frame`);
  await page.waitForTimeout(500);
  await expect(page.frameLocator("iframe").getByRole("heading", { level: 1, name: "Give 10 €, get 10 €" })).toHaveCount(0);
  expect(blocked.join("\n")).toContain("frame-ancestors");

  // Not the last character: in base64url its lowest bits can be padding, which decoders ignore.
  const at = url.length - 5;
  const tampered = url.slice(0, at) + (url[at] === "A" ? "B" : "A") + url.slice(at + 1);
  const res = await page.goto(tampered);
  expect(res!.status()).toBe(401);
  await expect(page.getByRole("heading", { name: "This page is not available" })).toBeVisible();
  await expect(page.getByText(ada.referralCode)).toHaveCount(0);
  await expectAxeClean(page, "refusal");
});

test("the widget's 'Your referrals' view on another origin: only for a user identified with userHash", async ({ page }) => {
  const userHash = createHmac("sha256", project.secret).update("ada").digest("hex");
  const host = (identify: string) =>
    `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width,initial-scale=1"><title>Shop</title>
<script src="${APP}/sdk/v1/referloop.js" data-key="${project.publishableKey}" async></script>
${QUEUE_STUB}
<script>Referloop.identify(${identify})</script>
</head><body><h1>Shop</h1></body></html>`;
  pages.set("/verified", host(JSON.stringify({ userId: "ada", userHash })));
  pages.set("/unverified", host(JSON.stringify({ userId: "ada" })));
  const calls: string[] = [];
  page.on("request", (r) => r.url().includes("/api/v1/sdk/") && calls.push(new URL(r.url()).pathname));

  await page.goto(`${SITE}/unverified`);
  await page.getByRole("button", { name: "Invite friends" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expect(page.getByRole("button", { name: "Your referrals" })).toHaveCount(0);
  expect(calls).not.toContain("/api/v1/sdk/referral-summary");

  await page.goto(`${SITE}/verified`);
  await page.getByRole("button", { name: "Invite friends" }).click();
  await page.getByRole("button", { name: "Your referrals" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Your referrals" })).toBeFocused();
  await expect(dialog.getByText("Rewarded", { exact: true }).first()).toBeVisible();
  await expect(dialog.getByRole("list", { name: "Friends you invited" }).getByText("Grace")).toBeVisible();
  await expect(dialog.getByText("1 more to reach Silver.")).toBeVisible();
  expect(calls).toContain("/api/v1/sdk/referral-summary");
  await dialog.getByRole("button", { name: "Back" }).click();
  await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible();
});
