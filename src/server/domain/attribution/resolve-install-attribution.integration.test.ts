import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppUser } from "@/server/domain/app-users/create-app-user";
import { updateCampaign } from "@/server/domain/campaigns/update-campaign";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";
import { waitUntil } from "@/test/wait";
import { buildClickFingerprint } from "./build-fingerprint";
import { clipboardSecrets } from "./clipboard-secret";
import { issueClipboardToken } from "./clipboard-token";
import type { ClickPayload, DeviceInput } from "@/lib/schemas/attribution";
import { recordLinkClick } from "./record-link-click";
import { resolveInstallAttribution, type InstallSignals } from "./resolve-install-attribution";

const MINUTE = 60_000;
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const page: Omit<ClickPayload, "clickId"> = { screenWidth: 390, screenHeight: 844, pixelRatio: 3, timezone: "Europe/Berlin", locale: "de-DE", maxTouchPoints: 5 };
const iphone: DeviceInput = { os: "ios", osVersion: "17.4.1", screenWidth: 390, screenHeight: 844, pixelRatio: 3, timezone: "Europe/Berlin", locale: "de-DE" };
const HOME = "2a02:8100:1:2:aaaa::1";
const HOME_LATER = "2a02:8100:1:2:bbbb::9"; // the same /64: the phone's next temporary address

let t: TestDb;
const config = testConfig();
const keys = clipboardSecrets(config);
const options = { clipboardKeys: keys.all };

type Fixture = OrgWithProject & { ada: string; bob: string };
async function mobileProject(): Promise<Fixture> {
  const f = await createOrgWithProject(t.db, { appType: "Mobile" });
  const ada = (await createAppUser(t.db, f.org.id, f.project.id, { clientProvidedId: "ada" })).referralCode;
  const bob = (await createAppUser(t.db, f.org.id, f.project.id, { clientProvidedId: "bob" })).referralCode;
  return { ...f, ada, bob };
}

/** A landing-page click recorded as the click endpoint records it. */
async function tap(f: Fixture, referralCode: string, at: Date, { ip = HOME, payload = page, rewardEventName = null as string | null } = {}) {
  const clickId = crypto.randomUUID();
  const fingerprint = buildClickFingerprint({ userAgent: IPHONE, ip, payload, createdAt: at });
  expect(await recordLinkClick(t.db, { clickId, projectId: f.project.id, referralCode, rewardEventName, fingerprint, userAgent: IPHONE })).toBe("recorded");
  return clickId;
}
const ago = (now: Date, minutes: number) => new Date(now.getTime() - minutes * MINUTE);
const launch = (f: Fixture, now: Date, signals: Partial<InstallSignals> = {}) =>
  resolveInstallAttribution(t.db, { projectId: f.project.id, device: iphone, ip: HOME_LATER, now, ...signals }, options);
const clickRow = (id: string) => t.db.linkClick.findUniqueOrThrow({ where: { id } });

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.drop());

describe("resolveInstallAttribution: the fingerprint", () => {
  it("binds the same iPhone minutes later with method fingerprint, marking the click once", async () => {
    const f = await mobileProject();
    const now = new Date();
    const clickId = await tap(f, f.ada, ago(now, 3), { rewardEventName: "purchase" });
    const appUser = await createAppUser(t.db, f.org.id, f.project.id, { clientProvidedId: "newcomer" });
    const result = await launch(f, now, { appUserId: appUser.uniqueId });
    expect(result).toEqual({ method: "fingerprint", confidence: expect.any(Number), bind: { referralCode: f.ada, rewardEventName: "purchase" }, clickId });
    expect(result.confidence).toBeGreaterThanOrEqual(0.9);
    expect(result.confidence).toBeLessThan(1);
    expect(await clickRow(clickId)).toMatchObject({ matchedAt: now, matchedAppUserId: appUser.uniqueId, matchMethod: "fingerprint" });
    // The same device launching again (a reinstall): the click is spent.
    expect(await launch(f, new Date(now.getTime() + MINUTE))).toMatchObject({ method: "none", confidence: 0 });
  });

  it("binds nothing after the window, from another device, or on weak evidence", async () => {
    const now = new Date();
    const late = await mobileProject();
    await tap(late, late.ada, ago(now, 121));
    expect(await launch(late, now)).toEqual({ method: "none", confidence: 0, reason: "no_candidates" });

    // The campaign's own window: 30 minutes.
    const short = await mobileProject();
    await updateCampaign(t.db, short.org.id, short.project.id, { matchWindowMinutes: 30 });
    await tap(short, short.ada, ago(now, 45));
    expect(await launch(short, now)).toMatchObject({ method: "none", reason: "no_candidates" });
    expect(await launch(short, ago(now, 20))).toMatchObject({ method: "fingerprint" });

    const other = await mobileProject();
    await tap(other, other.ada, ago(now, 3));
    expect(await launch(other, now, { device: { ...iphone, screenWidth: 393, screenHeight: 852 } })).toMatchObject({ method: "none", reason: "no_candidates" });
    expect(await launch(other, now, { device: { ...iphone, os: "android", osVersion: "14" } })).toMatchObject({ method: "none", reason: "no_candidates" });

    // The same model on another network, in another timezone, an hour and a half later: not enough.
    const weak = await mobileProject();
    const clickId = await tap(weak, weak.ada, ago(now, 95), { ip: "203.0.113.7" });
    expect(await launch(weak, now, { ip: "198.51.100.23", device: { ...iphone, timezone: "Europe/London", locale: "en-GB" } })).toMatchObject({
      method: "none",
      reason: "below_threshold",
    });
    expect((await clickRow(clickId)).matchedAt).toBeNull();
  });

  it("gives one click to exactly one of several first launches racing for it", async () => {
    const f = await mobileProject();
    const now = new Date();
    const clickId = await tap(f, f.bob, ago(now, 2));
    const results = await Promise.all(Array.from({ length: 5 }, () => launch(f, now)));
    expect(results.filter((r) => r.method === "fingerprint")).toHaveLength(1);
    expect(results.filter((r) => r.method === "none")).toHaveLength(4);
    expect((await clickRow(clickId)).matchMethod).toBe("fingerprint");
  });

  it("reads the window again when a concurrent first launch took the chosen click first", async () => {
    if (!t.url) return; // needs two connections
    const f = await mobileProject();
    const now = new Date();
    await tap(f, f.bob, ago(now, 2));
    let commitFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
    // The first launch marks the click inside a transaction that stays open...
    const first = t.db.$transaction(
      async (tx) => {
        const result = await resolveInstallAttribution(tx, { projectId: f.project.id, device: iphone, ip: HOME_LATER, now }, options);
        await firstMayCommit;
        return result;
      },
      { timeout: 20_000 },
    );
    await waitUntil(
      async () =>
        (
          await t.db.$queryRaw<{ n: number }[]>`
            SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
            WHERE l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND c.relname = 'LinkClick' AND l.mode = 'RowExclusiveLock' AND l.pid <> pg_backend_pid()`
        )[0]!.n,
      (n) => n >= 1,
      { what: "the first launch's update of the click" },
    );
    // ...the second reads the click as unmatched, chooses it, and waits on the first's row lock...
    const second = launch(f, now);
    await waitUntil(
      async () => (await t.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)[0]!.n,
      (n) => n >= 1,
      { what: "the second launch waiting on the click's row lock" },
    );
    commitFirst();
    // ...then finds it taken, reads again, and binds nothing.
    expect(await first).toMatchObject({ method: "fingerprint" });
    expect(await second).toEqual({ method: "none", confidence: 0, reason: "taken" });
  }, 30_000);
});

describe("resolveInstallAttribution: deterministic tokens win", () => {
  it("takes the install referrer's referral even when the fingerprint points at another referrer's click", async () => {
    const f = await mobileProject();
    const now = new Date();
    const bobsClick = await tap(f, f.bob, ago(now, 2));
    const adasClick = crypto.randomUUID(); // its beacon never arrived: the referrer alone is certain
    const result = await launch(f, now, { installReferrer: `utm_source=x&referralCode=${f.ada}&rewardEventName=signup&clickId=${adasClick}` });
    expect(result).toEqual({ method: "install_referrer", confidence: 1, bind: { referralCode: f.ada, rewardEventName: "signup" }, clickId: adasClick });
    expect((await clickRow(bobsClick)).matchedAt).toBeNull();
    // Its own click is marked, so no fingerprint hands it to someone else.
    const own = await tap(f, f.ada, ago(now, 1));
    await launch(f, now, { installReferrer: `referralCode=${f.ada}&clickId=${own}` });
    expect(await clickRow(own)).toMatchObject({ matchMethod: "install_referrer" });
  });

  it("takes the clipboard token over a fingerprint, once: a second install with the same token gets nothing from it", async () => {
    const f = await mobileProject();
    const now = new Date();
    await tap(f, f.bob, ago(now, 2));
    const adasClick = await tap(f, f.ada, ago(now, 4), { ip: "198.51.100.60" });
    const token = issueClipboardToken({ projectId: f.project.id, clickId: adasClick, referralCode: f.ada, rewardEventName: null }, keys.current, ago(now, 4));
    expect(await launch(f, now, { clipboardToken: `referloop:${token}` })).toEqual({
      method: "clipboard",
      confidence: 1,
      bind: { referralCode: f.ada, rewardEventName: null },
      clickId: adasClick,
    });
    expect(await clickRow(adasClick)).toMatchObject({ matchMethod: "clipboard" });
    const again = await launch(f, now, { clipboardToken: token, device: null });
    expect(again).toEqual({ method: "none", confidence: 0, reason: "no_signal" });
  });

  it("binds a clipboard token whose click was never recorded, and refuses forged, foreign and expired ones", async () => {
    const f = await mobileProject();
    const now = new Date();
    const lost = crypto.randomUUID();
    const token = issueClipboardToken({ projectId: f.project.id, clickId: lost, referralCode: f.bob, rewardEventName: "trial" }, keys.current, ago(now, 1));
    expect(await launch(f, now, { clipboardToken: token, device: null })).toMatchObject({ method: "clipboard", bind: { referralCode: f.bob, rewardEventName: "trial" } });
    expect(await clickRow(lost)).toMatchObject({ projectId: f.project.id, referralCode: f.bob, matchMethod: "clipboard" });

    const other = await mobileProject();
    const none = { method: "none", reason: "no_signal" };
    const foreign = issueClipboardToken({ projectId: other.project.id, clickId: crypto.randomUUID(), referralCode: f.bob, rewardEventName: null }, keys.current, now);
    expect(await launch(f, now, { clipboardToken: foreign, device: null })).toMatchObject(none);
    const forged = issueClipboardToken({ projectId: f.project.id, clickId: crypto.randomUUID(), referralCode: f.bob, rewardEventName: null }, "not-our-key", now);
    expect(await launch(f, now, { clipboardToken: forged, device: null })).toMatchObject(none);
    const expired = issueClipboardToken({ projectId: f.project.id, clickId: crypto.randomUUID(), referralCode: f.bob, rewardEventName: null }, keys.current, ago(now, 121));
    expect(await launch(f, now, { clipboardToken: expired, device: null })).toMatchObject(none);
  });

  it("takes a link opened after install: a tracking id of the project, a code, or the landing page's own URL", async () => {
    const f = await mobileProject();
    const now = new Date();
    await tap(f, f.bob, ago(now, 2));
    const { referralTrackingId } = await trackReferral(t.db, f.org.id, f.project.id, { referralCode: f.ada, refereeId: "someone" });
    expect(await launch(f, now, { deepLink: `https://acme.example/open?referralTrackingId=${referralTrackingId}&referralCode=${f.bob}` })).toEqual({
      method: "link",
      confidence: 1,
      bind: { referralTrackingId },
      clickId: null,
    });
    expect(await launch(f, now, { deepLink: `acme://join?referralCode=${f.ada}&rewardEventName=purchase` })).toMatchObject({
      method: "link",
      bind: { referralCode: f.ada, rewardEventName: "purchase" },
    });
    expect(await launch(f, now, { deepLink: `https://go.referloop.example/r/${f.project.id}/${f.ada}` })).toMatchObject({
      method: "link",
      bind: { referralCode: f.ada, rewardEventName: null },
    });
    // Tokens naming nothing of this project are passed over: here the fingerprint decides.
    const other = await mobileProject();
    const { referralTrackingId: foreignId } = await trackReferral(t.db, other.org.id, other.project.id, { referralCode: other.ada, refereeId: "x" });
    expect(
      await launch(f, now, {
        installReferrer: "referralCode=ZZZZZZ",
        deepLink: `https://acme.example/open?referralTrackingId=${foreignId}`,
      }),
    ).toMatchObject({ method: "fingerprint", bind: { referralCode: f.bob } });
  });

  it("says none without any signal", async () => {
    const f = await mobileProject();
    expect(await launch(f, new Date(), { device: null, ip: null })).toEqual({ method: "none", confidence: 0, reason: "no_signal" });
  });
});
