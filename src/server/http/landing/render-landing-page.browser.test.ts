/**
 * The landing page in a real browser (Debian's Chromium): served with its strict CSP by a tiny
 * HTTP server standing in for the `/r/{code}` routes, visited as an iPhone, an Android phone, an
 * iPad in desktop mode, a computer, and with scripts off. Checks what a visitor gets (where the page
 * sends them, the clipboard) and what the server gets (the click payload), and that the CSP never fires.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type BrowserContextOptions } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickPayloadSchema } from "@/lib/schemas/attribution";
import { parseInstallReferrer } from "@/server/domain/attribution/install-referrer";
import { landingPageCsp, renderLandingPage, type LandingPageInput } from "./render-landing-page";

const CODE = "AbC123";
const CLICK_ID = "0b6c1b0e-8f7a-4d39-9d57-5c1f2c3f4a5b";
const NONCE = "dGVzdC1ub25jZS0wMTIzNDU2Nzg5";
const UA = {
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  android: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  mac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  windows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
};

type Page = Omit<LandingPageInput, "nonce" | "webUrl" | "app" | "pagePath"> & { app?: Partial<LandingPageInput["app"]>; webUrl?: string | null };
let browser: Browser;
let origin = "";
let page: Page;
const clicks: Array<{ contentType: string | undefined; body: string }> = [];
/** Every request for the client's site (the redirect link), with the Referer it carried. */
const webVisits: Array<{ referer: string | undefined }> = [];
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", origin);
  if (url.pathname.startsWith("/web/")) webVisits.push({ referer: req.headers.referer });
  if (req.method === "POST" && url.pathname === `/r/${CODE}/click`) {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      clicks.push({ contentType: req.headers["content-type"], body });
      res.writeHead(204).end();
    });
    return;
  }
  if (url.pathname === `/r/${CODE}`) {
    const html = renderLandingPage({
      ...page,
      pagePath: `/r/${CODE}`,
      app: {
        name: "Acme Notes",
        iconUrl: "/icon.png",
        appStoreUrl: `${origin}/store/apple`,
        playStoreUrl: `${origin}/store/google?id=com.acme.notes`,
        ...page.app,
      },
      webUrl: page.webUrl === undefined ? `${origin}/web/join?referralCode=${CODE}` : page.webUrl,
      nonce: NONCE,
    });
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": landingPageCsp(NONCE) }).end(html);
    return;
  }
  // Stand-ins for the stores and the client's site.
  res.writeHead(200, { "content-type": "text/html" }).end(`<title>${url.pathname}</title>`);
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server.close(resolve));
});

/** Visits the page as the given device; returns where it ended, the click the server got, and any CSP reports. */
async function visit(device: BrowserContextOptions, input: Partial<Page> = {}, act?: (p: import("@playwright/test").Page) => Promise<void>) {
  page = { referralCode: CODE, rewardEventName: null, clickId: CLICK_ID, platform: "desktop", clipboardToken: null, ...input };
  clicks.length = 0;
  const context = await browser.newContext({ locale: "de-DE", timezoneId: "Europe/Berlin", ...device });
  const tab = await context.newPage();
  const violations: string[] = [];
  const errors: string[] = [];
  tab.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  tab.on("pageerror", (e) => errors.push(e.message));
  try {
    await tab.goto(`${origin}/r/${CODE}`);
    if (act) await act(tab);
    await tab.waitForURL((url) => !url.pathname.startsWith("/r/"), { timeout: 10_000 });
    await expect.poll(() => clicks.length, { timeout: 5_000 }).toBeGreaterThan(0);
    return { url: new URL(tab.url()), click: clicks[0], violations, errors, tab, context };
  } catch (error) {
    await context.close();
    throw error;
  }
}

const iphone: BrowserContextOptions = { userAgent: UA.iphone, viewport: { width: 390, height: 664 }, screen: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

describe("the landing page in Chromium", () => {
  it("sends an iPhone to the App Store and records its fingerprint", async () => {
    const { url, click, violations, errors, context } = await visit(iphone, { platform: "ios" });
    expect(url.pathname).toBe("/store/apple");
    expect(click!.contentType).toMatch(/^text\/plain/);
    // (Chromium answers userAgentData even under an iPhone's user agent, so platformVersion may come too.)
    expect(clickPayloadSchema.parse(JSON.parse(click!.body))).toMatchObject({
      clickId: CLICK_ID,
      screenWidth: 390,
      screenHeight: 844,
      pixelRatio: 3,
      timezone: "Europe/Berlin",
      locale: "de-DE",
    });
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("sends an Android phone to Google Play with the referral in the Install Referrer", async () => {
    const android: BrowserContextOptions = {
      userAgent: UA.android,
      viewport: { width: 412, height: 800 },
      screen: { width: 412, height: 915 },
      deviceScaleFactor: 2.625,
      isMobile: true,
      hasTouch: true,
      timezoneId: "America/Sao_Paulo",
      locale: "pt-BR",
    };
    const { url, click, violations, context } = await visit(android, { platform: "android", rewardEventName: "first order" });
    expect(url.pathname).toBe("/store/google");
    expect(url.searchParams.get("id")).toBe("com.acme.notes");
    expect(parseInstallReferrer(url.searchParams.get("referrer"))).toEqual({ referralCode: CODE, rewardEventName: "first order", clickId: CLICK_ID });
    expect(JSON.parse(click!.body)).toMatchObject({ screenWidth: 412, screenHeight: 915, pixelRatio: 2.625, timezone: "America/Sao_Paulo", locale: "pt-BR" });
    expect(violations).toEqual([]);
    await context.close();
  });

  it("shows a computer an interstitial naming the referral link's host, and goes there only on a click", async () => {
    webVisits.length = 0;
    const host = new URL(origin).host;
    const { url, violations, context } = await visit({ userAgent: UA.windows }, { platform: "desktop" }, async (tab) => {
      await expect.poll(() => clicks.length).toBe(1);
      expect(await tab.locator("#status").textContent()).toBe(`Acme Notes continues on ${host}:`);
      expect(await tab.locator(".destination").textContent()).toBe(`${origin}/web/join?referralCode=${CODE}`);
      // The page has recorded the click and run to its end: it has not left for the link by itself.
      await tab.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
      expect(webVisits).toEqual([]);
      expect(new URL(tab.url()).pathname).toBe(`/r/${CODE}`);
      await tab.getByRole("link", { name: `Continue to ${host}` }).click();
    });
    expect(url.pathname).toBe("/web/join");
    expect(webVisits).toEqual([{ referer: undefined }]);
    expect(url.searchParams.get("referralCode")).toBe(CODE);
    expect(violations).toEqual([]);
    await context.close();
  });

  it("sends an iPad asking for the desktop site to the App Store, though its user agent says Mac", async () => {
    const ipad: BrowserContextOptions = { userAgent: UA.mac, viewport: { width: 820, height: 1180 }, deviceScaleFactor: 2, hasTouch: true };
    const context = await browser.newContext(ipad);
    const probe = await context.newPage();
    const cdp = await context.newCDPSession(probe);
    await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 5 });
    await probe.goto(`${origin}/blank`);
    const touchPoints = await probe.evaluate(() => navigator.maxTouchPoints);
    await context.close();
    expect(touchPoints).toBeGreaterThan(1);

    page = { referralCode: CODE, rewardEventName: null, clickId: CLICK_ID, platform: "desktop", clipboardToken: null };
    clicks.length = 0;
    const ipadContext = await browser.newContext(ipad);
    const tab = await ipadContext.newPage();
    await (await ipadContext.newCDPSession(tab)).send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 5 });
    await tab.goto(`${origin}/r/${CODE}`);
    await tab.waitForURL((url) => url.pathname === "/store/apple", { timeout: 10_000 });
    await expect.poll(() => clicks.length).toBe(1);
    expect(JSON.parse(clicks[0]!.body)).toMatchObject({ maxTouchPoints: 5 });
    await ipadContext.close();
  });

  it("on iOS with a token, copies referloop:<token> on the visitor's tap, then opens the App Store", async () => {
    const { url, context, violations } = await visit(
      { ...iphone, permissions: ["clipboard-read", "clipboard-write"] },
      { platform: "ios", clipboardToken: "eyJjIjoxfQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ" },
      async (tab) => {
        // It waits for the tap: a clipboard write needs the visitor's gesture.
        await tab.getByRole("button", { name: "Copy the invite code and open the App Store" }).waitFor();
        expect(new URL(tab.url()).pathname).toBe(`/r/${CODE}`);
        await expect.poll(() => clicks.length).toBe(1);
        await tab.getByRole("button", { name: "Copy the invite code and open the App Store" }).click();
      },
    );
    expect(url.pathname).toBe("/store/apple");
    const reader = await context.newPage();
    await reader.goto(`${origin}/blank`);
    expect(await reader.evaluate(() => navigator.clipboard.readText())).toBe("referloop:eyJjIjoxfQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ");
    expect(violations).toEqual([]);
    await context.close();
  });

  it("with scripts off, still sends the visitor on and shows the links", async () => {
    page = { referralCode: CODE, rewardEventName: null, clickId: CLICK_ID, platform: "android", clipboardToken: null };
    clicks.length = 0;
    const context = await browser.newContext({ userAgent: UA.android, javaScriptEnabled: false });
    const tab = await context.newPage();
    const response = await tab.request.get(`${origin}/r/${CODE}`);
    expect(await response.text()).toContain("Get it on Google Play</a>");
    await tab.goto(`${origin}/r/${CODE}`);
    await tab.waitForURL((url) => url.pathname === "/store/google", { timeout: 10_000 });
    expect(parseInstallReferrer(new URL(tab.url()).searchParams.get("referrer")).referralCode).toBe(CODE);
    expect(clicks).toEqual([]);
    await context.close();
  });

  it("shows a hostile app name as text and runs nothing from it", async () => {
    const hostile = `</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">`;
    // A computer and no referral link: the page stays, so it can be read.
    page = { referralCode: CODE, rewardEventName: null, clickId: CLICK_ID, platform: "desktop", clipboardToken: null, app: { name: hostile }, webUrl: null };
    clicks.length = 0;
    const context = await browser.newContext({ userAgent: UA.windows });
    const tab = await context.newPage();
    await tab.goto(`${origin}/r/${CODE}`);
    await expect.poll(() => clicks.length).toBe(1);
    expect(await tab.title()).toBe(hostile);
    expect(await tab.locator("h1").textContent()).toBe(hostile);
    expect(await tab.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await context.close();
  });
});
