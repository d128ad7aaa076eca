import { describe, expect, it } from "vitest";
import { buildClickFingerprint, buildInstallFingerprint, fromLinkClick, toLinkClickColumns } from "./build-fingerprint";
import { clickPayloadSchema, deviceSchema } from "@/lib/schemas/attribution";
import { networkKeys, relateNetworks } from "./ip-networks";
import { compareScreens, formatScreenSize, normalizeScreen, parseScreenSize, samePixelRatio } from "./screen-size";

const AT = new Date("2026-11-02T12:00:00Z");
const IPAD_DESKTOP = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

describe("screen sizes", () => {
  it("puts both sides in portrait order, rounded", () => {
    expect(normalizeScreen(915, 411.43, 2.625)).toEqual({ width: 411, height: 915, pixelRatio: 2.63 });
    expect(normalizeScreen(390, 844)).toEqual({ width: 390, height: 844, pixelRatio: null });
  });

  it.each([
    [0, 844],
    [-390, 844],
    [Number.NaN, 844],
    [Number.POSITIVE_INFINITY, 844],
    [390, 20_000],
    [null, 844],
  ])("refuses %s x %s", (w, h) => expect(normalizeScreen(w, h)).toBeNull());

  it("stores as WxH@ratio and reads it back", () => {
    const screen = normalizeScreen(844, 390, 3)!;
    expect(formatScreenSize(screen)).toBe("390x844@3");
    expect(parseScreenSize("390x844@3")).toEqual(screen);
    expect(parseScreenSize("390x844")).toEqual({ width: 390, height: 844, pixelRatio: null });
    expect(parseScreenSize("wide")).toBeNull();
    expect(parseScreenSize(null)).toBeNull();
  });

  it("compares with a tolerance for rounding, and for system bars on the height only", () => {
    const browser = normalizeScreen(412, 915, 2.625)!;
    expect(compareScreens(browser, normalizeScreen(411.43, 914.29, 2.625)!)).toBe("same");
    expect(compareScreens(browser, normalizeScreen(411.43, 866.29, 2.625)!)).toBe("same_width");
    expect(compareScreens(browser, normalizeScreen(411.43, 780, 2.625)!)).toBe("different");
    expect(compareScreens(browser, normalizeScreen(393, 873, 2.75)!)).toBe("different");
    expect(samePixelRatio(browser, normalizeScreen(412, 915, 2.63)!)).toBe(true);
    expect(samePixelRatio(browser, normalizeScreen(412, 915, 3)!)).toBe(false);
    expect(samePixelRatio(browser, normalizeScreen(412, 915)!)).toBeNull();
  });
});

describe("networks", () => {
  it("an IPv4 address is its own network, its /24 is nearby", () => {
    expect(relateNetworks(networkKeys("198.51.100.7"), networkKeys("::ffff:198.51.100.7"))).toBe("same");
    expect(relateNetworks(networkKeys("198.51.100.7"), networkKeys("198.51.100.200"))).toBe("nearby");
    expect(relateNetworks(networkKeys("198.51.100.7"), networkKeys("198.51.101.7"))).toBe("other");
  });

  it("an IPv6 /64 is one network (temporary addresses rotate in it), its /48 is nearby", () => {
    expect(relateNetworks(networkKeys("2a02:8100:1:2::1"), networkKeys("2a02:8100:1:2:ffff:1:2:3"))).toBe("same");
    expect(relateNetworks(networkKeys("2a02:8100:1:2::1"), networkKeys("2a02:8100:1:3::1"))).toBe("nearby");
    expect(relateNetworks(networkKeys("2a02:8100:1:2::1"), networkKeys("2a02:8100:2:2::1"))).toBe("other");
  });

  it("another address family is another network; an unknown address is unknown", () => {
    expect(relateNetworks(networkKeys("198.51.100.7"), networkKeys("2a02:8100:1:2::1"))).toBe("other");
    expect(relateNetworks(networkKeys(null), networkKeys("198.51.100.7"))).toBe("unknown");
    expect(relateNetworks(networkKeys("garbage"), networkKeys("198.51.100.7"))).toBe("unknown");
  });
});

describe("buildClickFingerprint", () => {
  it("normalises what the landing page sent", () => {
    const payload = clickPayloadSchema.parse({
      clickId: "0b6c1b0e-8f7a-4d39-9d57-5c1f2c3f4a5b",
      screenWidth: 844,
      screenHeight: 390,
      pixelRatio: 3,
      timezone: "Asia/Calcutta",
      locale: "en-in",
      maxTouchPoints: 5,
    });
    const click = buildClickFingerprint({
      userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
      ip: "::ffff:198.51.100.7",
      payload,
      createdAt: AT,
    });
    expect(click).toEqual({
      os: "iOS",
      osVersion: "17.4",
      screen: { width: 390, height: 844, pixelRatio: 3 },
      timezone: buildInstallFingerprint({ os: "iOS", timezone: "Asia/Kolkata" }, null, AT).timezone,
      locale: "en-IN",
      ip: "198.51.100.7",
      createdAt: AT,
    });
  });

  it("takes an iPad asking for the desktop site for what it is", () => {
    const click = buildClickFingerprint({ userAgent: IPAD_DESKTOP, ip: null, payload: { maxTouchPoints: 5 }, createdAt: AT });
    expect(click).toMatchObject({ os: "iOS", osVersion: "17.5" });
  });

  it("drops values it cannot read instead of guessing", () => {
    const click = buildClickFingerprint({
      userAgent: null,
      ip: "not an address",
      payload: { timezone: "Mars/Olympus_Mons", locale: "!!" },
      createdAt: AT,
    });
    expect(click).toMatchObject({ os: "other", screen: null, timezone: null, locale: null, ip: null });
  });

  it("round-trips through LinkClick's columns", () => {
    const click = buildClickFingerprint({
      userAgent: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
      ip: "2a02:8100:1:2::1",
      payload: { screenWidth: 412, screenHeight: 915, pixelRatio: 2.625, timezone: "Europe/Berlin", locale: "de-DE", platformVersion: "14.0.0" },
      createdAt: AT,
    });
    const row = { ...toLinkClickColumns(click), userAgent: null, createdAt: AT };
    expect(fromLinkClick(row)).toEqual(click);
    // Without the osVersion column (today's schema) the version comes from the stored user agent.
    const { osVersion: _dropped, ...withoutVersion } = row;
    expect(fromLinkClick({ ...withoutVersion, userAgent: "Mozilla/5.0 (Linux; Android 13; SM-S908B) Chrome/108.0.0.0 Mobile Safari/537.36" }).osVersion).toBe("13");
  });
});

describe("buildInstallFingerprint", () => {
  it("normalises init-app-user's device", () => {
    const device = deviceSchema.parse({
      os: "ios",
      osVersion: "17.4.1",
      screenWidth: 844,
      screenHeight: 390,
      pixelRatio: 3,
      timezone: "Europe/Berlin",
      locale: "de_DE",
    });
    expect(buildInstallFingerprint(device, "198.51.100.7", AT)).toEqual({
      os: "iOS",
      osVersion: "17.4",
      screen: { width: 390, height: 844, pixelRatio: 3 },
      timezone: "Europe/Berlin",
      locale: "de-DE",
      ip: "198.51.100.7",
      at: AT,
    });
  });

  it("compares Android by major version and knows no other OS", () => {
    expect(buildInstallFingerprint({ os: "Android", osVersion: "14.0.1" }, null, AT).osVersion).toBe("14");
    expect(buildInstallFingerprint({ os: "Windows", osVersion: "11" }, null, AT).os).toBeNull();
  });

  it("refuses device values outside the schema's limits", () => {
    expect(deviceSchema.safeParse({ os: "iOS", screenWidth: -1 }).success).toBe(false);
    expect(deviceSchema.safeParse({ os: "iOS", pixelRatio: 50 }).success).toBe(false);
    expect(deviceSchema.safeParse({ os: "" }).success).toBe(false);
    expect(deviceSchema.safeParse({ os: "iOS" }).success).toBe(true);
  });
});
