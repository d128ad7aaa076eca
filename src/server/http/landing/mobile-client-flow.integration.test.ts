import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferloopMobile, type DeviceAdapter, type DeviceInfo } from "../../../../packages/react-native/src/index";
import { createAppUser } from "@/server/domain/app-users/create-app-user";
import { buildReferralLink } from "@/server/domain/referrals/build-referral-link";
import { fromFetchRequest } from "@/server/http/api-exchange";
import { RateLimiter } from "@/server/rate-limit/rate-limiter";
import { PEER_ADDRESS_HEADER } from "@/server/http/peer-address";
import { handleSdkRequest } from "@/server/api/rest/handle-sdk-request";
import { testConfig, testServices } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";
import { recordLandingClick } from "./record-landing-click";
import { serveLandingPage, type LandingServices } from "./serve-landing-page";
import { memoryStorage } from "@/test/mobile-storage";

/*
 * The mobile client (packages/react-native) with what the real landing page hands a visitor, end to end on
 * the app's own handlers and a real database: the page and its click endpoint, then the first launch's
 * init-app-user (the SDK route's handler), which resolves the signals and binds the new user.
 */

const ORIGIN = "https://go.referloop.example";
const PHONE_IP = "198.51.100.44";
const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const PIXEL_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
const IPHONE: DeviceInfo = { os: "ios", osVersion: "17.4.1", screenWidth: 390, screenHeight: 844, pixelRatio: 3, timezone: "Europe/Berlin", locale: "de-DE" };
const PIXEL: DeviceInfo = { os: "android", osVersion: "14", screenWidth: 411.42857, screenHeight: 914.28571, pixelRatio: 2.625, timezone: "Europe/Berlin", locale: "de-DE" };

let t: TestDb;
let services: LandingServices;
let f: OrgWithProject;
let code: string;

beforeAll(async () => {
  t = await createTestDb();
  services = { db: t.db, config: testConfig({ REFERLOOP_PUBLIC_URL: ORIGIN }), limiter: new RateLimiter() };
  f = await createOrgWithProject(t.db, {
    appType: "Mobile",
    app: { name: "Acme Notes", appStoreUrl: "https://apps.apple.com/app/id123456789", playStoreUrl: "https://play.google.com/store/apps/details?id=com.acme.notes" },
  });
  code = (await createAppUser(t.db, f.org.id, f.project.id, { clientProvidedId: "ada" })).referralCode;
});
afterAll(() => t.drop());

/** A visit of the referral link the client's API hands out, as the page's script runs it: the page, then its beacon. */
async function visit(userAgent: string, screen: { screenWidth: number; screenHeight: number; pixelRatio: number }) {
  const link = buildReferralLink(f.project, code, null, ORIGIN)!;
  const path = { projectId: f.project.id, code };
  const html = await (await serveLandingPage(new Request(link, { headers: { "user-agent": userAgent } }), services, path)).text();
  const config = JSON.parse(/\}\)\((\{.*\})\);<\/script>/s.exec(html)![1]!) as { clickId: string; clickUrl: string; destinations: Record<string, string>; clipboardText: string | null };
  const beacon = { clickId: config.clickId, ...screen, timezone: "Europe/Berlin", locale: "de-DE", maxTouchPoints: 5 };
  const res = await recordLandingClick(
    fromFetchRequest(new Request(`${ORIGIN}${config.clickUrl}`, { method: "POST", headers: { "user-agent": userAgent, [PEER_ADDRESS_HEADER]: PHONE_IP }, body: JSON.stringify(beacon) })),
    services,
    path,
  );
  expect(res.status).toBe(204);
  return config;
}

/** init-app-user itself, as the app's route calls it, from the phone's address. */
const initAppUser: typeof fetch = async (url, init) => {
  const headers = new Headers(init!.headers);
  headers.set(PEER_ADDRESS_HEADER, PHONE_IP);
  return handleSdkRequest(new Request(String(url), { ...init, headers }), testServices(t.db, { config: services.config }));
};

/** The referral the new user was bound to: its referrer's client id, or null. */
const referrerOf = async (userId: string) =>
  (await t.db.referralTracking.findFirst({ where: { referee: { clientProvidedId: userId, projectId: f.project.id } }, include: { referrer: true } }))?.referrer
    ?.clientProvidedId ?? null;

const app = (device: DeviceAdapter) =>
  createReferloopMobile({ key: f.project.publishableKey, apiBaseUrl: ORIGIN, storage: memoryStorage(), device, fetch: initAppUser });
const clickOf = (clickId: string) => t.db.linkClick.findUniqueOrThrow({ where: { id: clickId } });

describe("the mobile client with the landing page's signals", () => {
  it("Android: the Play Store link's install referrer binds the referral with certainty", async () => {
    const page = await visit(PIXEL_UA, { screenWidth: 412, screenHeight: 915, pixelRatio: 2.625 });
    // Google Play hands the app the `referrer` parameter of the store link, decoded once.
    const installReferrer = new URL(page.destinations.android!).searchParams.get("referrer");
    const client = app({ getInfo: () => PIXEL, getInstallReferrer: async () => installReferrer });
    const result = await client.identify({ userId: "new-android-user" });
    expect(result.ok && result.user.attribution).toEqual({ method: "install_referrer", confidence: 1 });
    expect(client.getReferralLink()).toMatch(new RegExp(`^${ORIGIN}/r/${f.project.id}/[A-Za-z0-9]{6}$`));
    expect(await referrerOf("new-android-user")).toBe("ada");
    expect(await clickOf(page.clickId)).toMatchObject({ os: "Android", osVersion: "14", matchMethod: "install_referrer" });
  });

  it("iOS: the page's clipboard token binds with certainty, once", async () => {
    const page = await visit(IPHONE_UA, { screenWidth: 390, screenHeight: 844, pixelRatio: 3 });
    const clipboard = async () => page.clipboardText;
    const first = await app({ getInfo: () => IPHONE, readClipboard: clipboard }).identify({ userId: "new-ios-user" });
    expect(first.ok && first.user.attribution).toEqual({ method: "clipboard", confidence: 1 });
    expect(await referrerOf("new-ios-user")).toBe("ada");
    expect(await clickOf(page.clickId)).toMatchObject({ matchMethod: "clipboard" });
    // Another install on another phone with the same clipboard text (synced clipboard): nothing from it.
    const second = await app({ getInfo: () => ({ ...IPHONE, screenWidth: 430, screenHeight: 932 }), readClipboard: clipboard }).identify({ userId: "other" });
    expect(second.ok && second.user.attribution.method).toBe("none");
    expect(await referrerOf("other")).toBeNull();
  });

  it("iOS without the clipboard (declined): the device fingerprint binds the page's click", async () => {
    const page = await visit(IPHONE_UA, { screenWidth: 375, screenHeight: 812, pixelRatio: 3 });
    const device = { ...IPHONE, screenWidth: 375, screenHeight: 812 };
    const result = await app({ getInfo: () => device, readClipboard: async () => "something else the user copied" }).identify({ userId: "fp-user" });
    expect(result.ok && result.user.attribution.method).toBe("fingerprint");
    expect(result.ok && result.user.attribution.confidence).toBeGreaterThanOrEqual(0.9);
    expect(await clickOf(page.clickId)).toMatchObject({ matchMethod: "fingerprint", ipAddress: PHONE_IP });
    expect(await referrerOf("fp-user")).toBe("ada");
  });

  it("two first launches racing for one click: one is bound to the referral, the other to nothing", async () => {
    await visit(IPHONE_UA, { screenWidth: 428, screenHeight: 926, pixelRatio: 3 });
    const device = { ...IPHONE, screenWidth: 428, screenHeight: 926 };
    const results = await Promise.all(["racer-1", "racer-2"].map((userId) => app({ getInfo: () => device }).identify({ userId })));
    expect(results.map((r) => r.ok && r.user.attribution.method).sort()).toEqual(["fingerprint", "none"]);
    const bound = await Promise.all(["racer-1", "racer-2"].map(referrerOf));
    expect(bound.filter(Boolean)).toEqual(["ada"]);
  });
});
