import { describe, expect, it } from "vitest";
import { parseUserAgent, type ParsedUserAgent } from "./parse-user-agent";

// Real user agents, as browsers and in-app browsers send them.
const TABLE: Array<[string, string, ParsedUserAgent]> = [
  [
    "iPhone Safari, iOS 17.4",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    { os: "iOS", osVersion: "17.4", platform: "ios" },
  ],
  [
    "iPhone Safari, iOS 16.6.1 (patch dropped)",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
    { os: "iOS", osVersion: "16.6", platform: "ios" },
  ],
  [
    "iPhone Safari 18.6 on iOS 18.6 (a real 18_6)",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1",
    { os: "iOS", osVersion: "18.6", platform: "ios" },
  ],
  [
    "iPhone Safari 26: OS token frozen at 18_6, Version tells the truth",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1",
    { os: "iOS", osVersion: "26.0", platform: "ios" },
  ],
  [
    "iPhone Safari 26.3: OS token frozen at 18_7",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.3 Mobile/15E148 Safari/604.1",
    { os: "iOS", osVersion: "26.3", platform: "ios" },
  ],
  [
    "Chrome on iOS with a possibly frozen 18_6: unknown, not a guess",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/138.0.7204.156 Mobile/15E148 Safari/604.1",
    { os: "iOS", osVersion: null, platform: "ios" },
  ],
  [
    "Chrome on iOS 17.5",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/125.0.6422.80 Mobile/15E148 Safari/604.1",
    { os: "iOS", osVersion: "17.5", platform: "ios" },
  ],
  [
    "Instagram in-app browser reports the system version itself",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 394.0.0.46.81 (iPhone15,2; iOS 26_1; de_DE; de; scale=3.00; 1179x2556; 789473215; IABMV/1)",
    { os: "iOS", osVersion: "26.1", platform: "ios" },
  ],
  [
    "Facebook in-app browser (FBSV)",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/453.0.0.44.105;FBBV/567892512;FBDV/iPhone14,7;FBMD/iPhone;FBSN/iOS;FBSV/17.3.1;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/569472312]",
    { os: "iOS", osVersion: "17.3", platform: "ios" },
  ],
  [
    "iPad Safari in mobile mode",
    "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
    { os: "iOS", osVersion: "16.6", platform: "ios" },
  ],
  [
    "Android Chrome, reduced user agent: version unknown",
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
    { os: "Android", osVersion: null, platform: "android" },
  ],
  [
    "Android Chrome before the reduction",
    "Mozilla/5.0 (Linux; Android 13; SM-S908B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0.0.0 Mobile Safari/537.36",
    { os: "Android", osVersion: "13", platform: "android" },
  ],
  [
    "Samsung Internet",
    "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
    { os: "Android", osVersion: "14", platform: "android" },
  ],
  [
    "Firefox for Android",
    "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0",
    { os: "Android", osVersion: "14", platform: "android" },
  ],
  [
    "Android 7.1.2 WebView",
    "Mozilla/5.0 (Linux; Android 7.1.2; Redmi 4X Build/N2G47H; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/96.0.4664.104 Mobile Safari/537.36",
    { os: "Android", osVersion: "7", platform: "android" },
  ],
  [
    "Android tablet",
    "Mozilla/5.0 (Linux; Android 12; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36",
    { os: "Android", osVersion: "12", platform: "android" },
  ],
  [
    "Mac Safari (OS token frozen at 10_15_7)",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
    { os: "macOS", osVersion: null, platform: "desktop" },
  ],
  [
    "Mac Firefox",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:125.0) Gecko/20100101 Firefox/125.0",
    { os: "macOS", osVersion: null, platform: "desktop" },
  ],
  [
    "Windows Chrome",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    { os: "Windows", osVersion: "10", platform: "desktop" },
  ],
  [
    "Windows 7 Firefox",
    "Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:109.0) Gecko/20100101 Firefox/115.0",
    { os: "Windows", osVersion: "7", platform: "desktop" },
  ],
  [
    "ChromeOS",
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    { os: "ChromeOS", osVersion: null, platform: "desktop" },
  ],
  [
    "Linux Firefox",
    "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
    { os: "Linux", osVersion: null, platform: "desktop" },
  ],
  [
    "Windows Phone pretends to be Android",
    "Mozilla/5.0 (Mobile; Windows Phone 8.1; Android 4.0; ARM; Trident/7.0; Touch; rv:11.0; IEMobile/11.0; NOKIA; Lumia 635) like iPhone OS 7_0_3 Mac OS X AppleWebKit/537 (KHTML, like Gecko) Mobile Safari/537",
    { os: "other", osVersion: null, platform: "desktop" },
  ],
  ["curl", "curl/8.5.0", { os: "other", osVersion: null, platform: "desktop" }],
];

describe("parseUserAgent", () => {
  it.each(TABLE)("%s", (_name, ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected);
  });

  it("treats a missing user agent as an unknown desktop", () => {
    expect(parseUserAgent(undefined)).toEqual({ os: "other", osVersion: null, platform: "desktop" });
    expect(parseUserAgent("")).toEqual({ os: "other", osVersion: null, platform: "desktop" });
  });

  describe("iPadOS sends the Mac user agent; touch points tell them apart", () => {
    const desktopClass =
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";
    it("an iPad (5 touch points) is iOS, versioned by Safari", () => {
      expect(parseUserAgent(desktopClass, { maxTouchPoints: 5 })).toEqual({ os: "iOS", osVersion: "17.5", platform: "ios" });
    });
    it("a Mac (0 touch points, or unknown) stays a desktop", () => {
      expect(parseUserAgent(desktopClass, { maxTouchPoints: 0 }).platform).toBe("desktop");
      expect(parseUserAgent(desktopClass).platform).toBe("desktop");
    });
  });

  it("Chromium's platformVersion hint replaces the frozen Android version", () => {
    const reduced = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
    expect(parseUserAgent(reduced, { platformVersion: "14.0.0" }).osVersion).toBe("14");
    expect(parseUserAgent(reduced, { platformVersion: "" }).osVersion).toBeNull();
    expect(parseUserAgent(reduced, { platformVersion: "garbage" }).osVersion).toBeNull();
  });
});
