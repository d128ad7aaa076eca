import { describe, expect, it } from "vitest";
import { buildClickFingerprint, buildInstallFingerprint } from "./build-fingerprint";
import type { ClickPayload, DeviceInput } from "@/lib/schemas/attribution";
import {
  DEFAULT_MATCH_THRESHOLD,
  DEFAULT_WINDOW_MS,
  matchClick,
  MAX_WINDOW_MS,
  MIN_WINDOW_MS,
  type ClickCandidate,
} from "./match-click";
import { scoreFingerprint } from "./score-fingerprint";
import { DEFAULT_MATCH_WINDOW_MINUTES, matchWindowMinutesSchema } from "@/lib/schemas/campaigns";

const MINUTE = 60_000;
const INSTALL_AT = new Date("2026-11-02T12:00:00Z");
const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const ANDROID_CHROME = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";

const iphonePage: Omit<ClickPayload, "clickId"> = {
  screenWidth: 390,
  screenHeight: 844,
  pixelRatio: 3,
  timezone: "Europe/Berlin",
  locale: "de-DE",
  maxTouchPoints: 5,
};
const iphoneApp: DeviceInput = { os: "ios", osVersion: "17.4.1", screenWidth: 390, screenHeight: 844, pixelRatio: 3, timezone: "Europe/Berlin", locale: "de_DE" };

let ids = 0;
function click(overrides: { minutesBefore?: number; ip?: string; ua?: string; page?: Partial<ClickPayload>; code?: string; matched?: boolean } = {}): ClickCandidate {
  return {
    ...buildClickFingerprint({
      userAgent: overrides.ua ?? IPHONE_SAFARI,
      ip: overrides.ip ?? "2a02:8100:1:2:aaaa::1",
      payload: { ...iphonePage, ...overrides.page },
      createdAt: new Date(INSTALL_AT.getTime() - (overrides.minutesBefore ?? 3) * MINUTE),
    }),
    id: `click-${++ids}`,
    referralCode: overrides.code ?? "AbC123",
    rewardEventName: null,
    matchedAt: overrides.matched ? INSTALL_AT : null,
  };
}
const install = (device: Partial<DeviceInput> = {}, ip = "2a02:8100:1:2:bbbb::9", at = INSTALL_AT) =>
  buildInstallFingerprint({ ...iphoneApp, ...device }, ip, at);

describe("scoreFingerprint", () => {
  it("is confident about the same iPhone on the same home network minutes later", () => {
    const score = scoreFingerprint(click(), install());
    expect(score.veto).toBeNull();
    expect(score.score).toBeGreaterThan(0.99);
    expect(score.weights.network).toBeGreaterThan(0);
    expect(score.weights.device).toBeGreaterThan(0);
  });

  it.each([
    ["another OS", click({ ua: ANDROID_CHROME }), install(), "other_os"],
    ["a desktop click", click({ ua: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0.0.0 Safari/537.36" }), install(), "not_mobile"],
    ["another screen", click({ page: { screenWidth: 393, screenHeight: 852 } }), install(), "other_screen"],
    ["an older OS at install", click(), install({ osVersion: "17.3" }), "os_downgrade"],
    ["a click after the install", click({ minutesBefore: -1 }), install(), "outside_window"],
    ["a click older than the window", click({ minutesBefore: 121 }), install(), "outside_window"],
  ])("vetoes %s", (_name, c, i, veto) => {
    expect(scoreFingerprint(c, i)).toMatchObject({ veto, odds: 0, score: 0 });
  });

  it("sees the same screen in a landscape Android browser and the app (portrait, rounded dp)", () => {
    const androidClick = click({ ua: ANDROID_CHROME, page: { screenWidth: 915, screenHeight: 412, pixelRatio: 2.625 } });
    const androidApp = install({ os: "android", osVersion: "14", screenWidth: 411.42857, screenHeight: 914.28571, pixelRatio: 2.625 });
    expect(scoreFingerprint(androidClick, androidApp).veto).toBeNull();
    // The app leaving the navigation bar out of the height: weaker, not a veto.
    const withoutBar = install({ os: "android", osVersion: "14", screenWidth: 411.42857, screenHeight: 866.28571, pixelRatio: 2.625 });
    const barScore = scoreFingerprint(androidClick, withoutBar);
    expect(barScore.veto).toBeNull();
    expect(barScore.weights.device).toBeLessThan(scoreFingerprint(androidClick, androidApp).weights.device);
  });

  it("weighs an OS update between click and install against, without a veto", () => {
    const same = scoreFingerprint(click(), install());
    const updated = scoreFingerprint(click(), install({ osVersion: "17.5" }));
    expect(updated.veto).toBeNull();
    expect(updated.weights.device).toBeLessThan(same.weights.device);
  });

  it("weighs another timezone strongly against", () => {
    const home = scoreFingerprint(click(), install());
    const abroad = scoreFingerprint(click(), install({ timezone: "America/New_York" }));
    expect(abroad.veto).toBeNull();
    expect(home.weights.device - abroad.weights.device).toBeGreaterThan(3);
  });

  it("treats what a side does not know as no evidence", () => {
    const unknownNetwork = scoreFingerprint(click(), install({}, ""));
    expect(unknownNetwork.weights.network).toBe(0);
    const frozen = click({ ua: IPHONE_SAFARI.replace("17_4", "18_6").replace("Version/17.4", "CriOS/138.0") });
    expect(frozen.osVersion).toBeNull();
    expect(scoreFingerprint(frozen, install()).veto).toBeNull();
  });

  it("prefers a click minutes before the install to one nearly two hours before", () => {
    expect(scoreFingerprint(click({ minutesBefore: 3 }), install()).score).toBeGreaterThan(scoreFingerprint(click({ minutesBefore: 110 }), install()).score);
  });

  it("needs the network: the same phone type on another network is not enough", () => {
    expect(scoreFingerprint(click({ ip: "203.0.113.7" }), install()).score).toBeLessThan(DEFAULT_MATCH_THRESHOLD);
  });
});

describe("matchClick", () => {
  it("binds the only click that fits, with its score as the confidence", () => {
    const only = click();
    const result = matchClick([only], install());
    expect(result).toMatchObject({ outcome: "matched", click: only });
    expect(result.confidence).toBeCloseTo(scoreFingerprint(only, install()).score, 10);
    expect(result.confidence).toBeGreaterThanOrEqual(DEFAULT_MATCH_THRESHOLD);
  });

  it("binds nothing when no click fits", () => {
    expect(matchClick([], install())).toMatchObject({ outcome: "none", reason: "no_candidates" });
    expect(matchClick([click({ page: { screenWidth: 375, screenHeight: 667 } })], install())).toMatchObject({
      outcome: "none",
      reason: "no_candidates",
    });
    expect(matchClick([click({ ip: "203.0.113.7" })], install())).toMatchObject({ outcome: "none", reason: "below_threshold" });
  });

  it("never binds a matched click", () => {
    expect(matchClick([click({ matched: true })], install())).toMatchObject({ outcome: "none", reason: "no_candidates" });
  });

  it("refuses to choose between strangers behind one carrier address who followed different referrers", () => {
    const nat = "198.51.100.20";
    const a = click({ ip: nat, code: "Alice1", minutesBefore: 4 });
    const b = click({ ip: nat, code: "Bobby2", minutesBefore: 4 });
    expect(matchClick([a], install({}, nat))).toMatchObject({ outcome: "matched", click: a });
    const result = matchClick([a, b], install({}, nat));
    expect(result).toMatchObject({ outcome: "none", reason: "ambiguous" });
    expect(result.confidence).toBeLessThan(0.5);
  });

  it("pools taps on one referral: a double tap is not an ambiguity, and the most recent tap is bound", () => {
    const first = click({ minutesBefore: 4 });
    const again = click({ minutesBefore: 3 });
    const result = matchClick([first, again], install());
    expect(result).toMatchObject({ outcome: "matched", click: again });
    // Same code but another reward event is another referral.
    const otherEvent = { ...click({ minutesBefore: 3 }), rewardEventName: "purchase" };
    expect(matchClick([first, otherEvent], install())).toMatchObject({ outcome: "none", reason: "ambiguous" });
  });

  it("trusts a crowded carrier address less than a quiet one", () => {
    const nat = "198.51.100.20";
    const target = click({ ip: nat, minutesBefore: 10 });
    // Other visitors behind the same address, on other phones (and already matched: still evidence of crowding).
    const crowd = Array.from({ length: 40 }, (_, i) =>
      click({ ip: nat, minutesBefore: 5 + i, page: { screenWidth: 375, screenHeight: 667, pixelRatio: 2 }, code: `Crowd${i}`, matched: i % 2 === 0 }),
    );
    const quiet = matchClick([target], install({}, nat));
    const crowded = matchClick([target, ...crowd], install({}, nat));
    expect(quiet.outcome).toBe("matched");
    expect(crowded.confidence).toBeLessThan(quiet.confidence);
    expect(crowded).toMatchObject({ outcome: "none" });
  });

  it("trusts a popular phone less than a rare one", () => {
    const target = click({ minutesBefore: 10, ip: "198.51.100.20" });
    const samePhones = Array.from({ length: 30 }, (_, i) => click({ minutesBefore: 20 + i, ip: `203.0.113.${i + 1}`, code: `Other${i}` }));
    const otherPhones = samePhones.map((c) => ({ ...c, screen: { width: 428, height: 926, pixelRatio: 3 } }));
    const rare = matchClick([target, ...otherPhones], install({}, "198.51.100.20"));
    const popular = matchClick([target, ...samePhones], install({}, "198.51.100.20"));
    expect(popular.confidence).toBeLessThan(rare.confidence);
  });

  it("ignores clicks outside the window, which is configurable from 1 minute to 24 hours", () => {
    const old = click({ minutesBefore: 150 });
    expect(matchClick([old], install())).toMatchObject({ outcome: "none", reason: "no_candidates" });
    expect(matchClick([old], install(), { windowMs: 3 * 60 * MINUTE })).toMatchObject({ outcome: "matched", click: old });
    expect(() => matchClick([old], install(), { windowMs: MIN_WINDOW_MS - 1 })).toThrow(RangeError);
    expect(() => matchClick([old], install(), { windowMs: MAX_WINDOW_MS + 1 })).toThrow(RangeError);
  });

  it("takes the threshold as an option", () => {
    const c = click({ minutesBefore: 100, ip: "203.0.113.7" });
    const strict = matchClick([c], install({}, "203.0.113.7"), { threshold: 0.999_999 });
    expect(strict).toMatchObject({ outcome: "none", reason: "below_threshold" });
    expect(matchClick([c], install({}, "203.0.113.7"), { threshold: strict.confidence })).toMatchObject({ outcome: "matched" });
  });

  it("stores the window in whole minutes, 2 hours by default", () => {
    expect(DEFAULT_MATCH_WINDOW_MINUTES * MINUTE).toBe(DEFAULT_WINDOW_MS);
    expect(DEFAULT_WINDOW_MS).toBe(2 * 60 * MINUTE);
    expect(matchWindowMinutesSchema.parse(1)).toBe(1);
    expect(matchWindowMinutesSchema.parse(1440)).toBe(1440);
    expect(matchWindowMinutesSchema.safeParse(0).success).toBe(false);
    expect(matchWindowMinutesSchema.safeParse(1441).success).toBe(false);
    expect(matchWindowMinutesSchema.safeParse(2.5).success).toBe(false);
  });
});
