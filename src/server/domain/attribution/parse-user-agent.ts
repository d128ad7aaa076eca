/**
 * Operating system and version from a user agent, for two uses: which store the landing page sends a
 * visitor to, and the OS part of a click's fingerprint. Browsers now lie on purpose about versions;
 * a version we know to be frozen is reported as null (unknown), never as a wrong number, because the
 * matcher treats a version mismatch as evidence against a match.
 */
export type OsName = "iOS" | "Android" | "macOS" | "Windows" | "ChromeOS" | "Linux" | "other";

/** Where the landing page sends the visitor. */
export type StorePlatform = "ios" | "android" | "desktop";

export type ParsedUserAgent = { os: OsName; osVersion: string | null; platform: StorePlatform };

export type UserAgentHints = {
  /**
   * `navigator.maxTouchPoints` from the page. iPadOS Safari sends the desktop Mac user agent by
   * default ("desktop-class browsing"); only touch support tells an iPad from a Mac (Macs report 0).
   */
  maxTouchPoints?: number | null;
  /**
   * `navigator.userAgentData.getHighEntropyValues(["platformVersion"])` from Chromium browsers, e.g.
   * "14.0.0" on Android 14: the real version where the reduced user agent says "Android 10".
   */
  platformVersion?: string | null;
};

const PLATFORM: Record<OsName, StorePlatform> = {
  iOS: "ios",
  Android: "android",
  macOS: "desktop",
  Windows: "desktop",
  ChromeOS: "desktop",
  Linux: "desktop",
  other: "desktop",
};

/** "17_4_1" or "17.4" -> "17.4" (major.minor: the matcher never compares patch levels). */
function majorMinor(raw: string | undefined): string | null {
  if (!raw) return null;
  const [major, minor] = raw.split(/[._]/);
  if (!major || !/^\d+$/.test(major)) return null;
  return minor && /^\d+$/.test(minor) ? `${Number(major)}.${Number(minor)}` : String(Number(major));
}

/**
 * iOS 26 Safari froze the OS token at 18_6 (18_7 from 26.2 on) and moved the truth to Safari's own
 * `Version/26.x`; WebKit-based browsers without that token (Chrome, Firefox, Edge on iOS) inherit the
 * frozen value. In-app browsers of Instagram and Facebook append the app's own report of the system
 * version, which is real.
 */
function iosVersion(ua: string, osToken: string | undefined): string | null {
  const inApp = /\biOS (\d+[_.]\d+)/.exec(ua)?.[1] ?? /FBSV\/(\d+(?:\.\d+)*)/.exec(ua)?.[1];
  if (inApp) return majorMinor(inApp);
  const safari = /Version\/(\d+(?:\.\d+)*)[^)]*Safari\//.exec(ua)?.[1];
  const safariVersion = majorMinor(safari);
  if (safariVersion && Number.parseInt(safariVersion, 10) >= 26) return safariVersion;
  const reported = majorMinor(osToken);
  if ((reported === "18.6" || reported === "18.7") && !safariVersion) return null;
  return reported;
}

const WINDOWS_NT: Record<string, string> = { "10.0": "10", "6.3": "8.1", "6.2": "8", "6.1": "7" };

function parse(ua: string, hints: UserAgentHints): Omit<ParsedUserAgent, "platform"> {
  const apple = /\((iPhone|iPad|iPod)[^)]*?\bOS (\d+(?:_\d+)*)/.exec(ua);
  if (apple) return { os: "iOS", osVersion: iosVersion(ua, apple[2]) };
  if (/\((iPhone|iPad|iPod)\b/.test(ua)) return { os: "iOS", osVersion: iosVersion(ua, undefined) };

  if (/\bAndroid\b/.test(ua) && !/Windows Phone/.test(ua)) {
    const hinted = majorMinor(hints.platformVersion ?? undefined);
    if (hinted && hinted !== "0") return { os: "Android", osVersion: hinted.split(".")[0]! };
    // Chrome's reduced user agent (since Chrome 110) always says "Android 10; K".
    if (/Android 10; K\)/.test(ua)) return { os: "Android", osVersion: null };
    const version = majorMinor(/Android[ /](\d+(?:\.\d+)*)/.exec(ua)?.[1]);
    // Android versions are compared by major only: apps report "14", browsers sometimes "14.0".
    return { os: "Android", osVersion: version ? version.split(".")[0]! : null };
  }

  if (/\bCrOS\b/.test(ua)) return { os: "ChromeOS", osVersion: null };

  const windows = /Windows NT (\d+\.\d+)/.exec(ua);
  if (windows) return { os: "Windows", osVersion: WINDOWS_NT[windows[1]!] ?? null }; // 10.0 is 10 and 11 alike

  if (/\bMacintosh\b/.test(ua)) {
    if ((hints.maxTouchPoints ?? 0) > 1) {
      // An iPad asking for the desktop site: Safari's Version token follows iPadOS.
      const safari = /Version\/(\d+(?:\.\d+)*)/.exec(ua)?.[1];
      return { os: "iOS", osVersion: majorMinor(safari) };
    }
    // Every Mac browser freezes the OS token at 10_15_7 (Safari, Chrome) or 10.15 (Firefox).
    const version = majorMinor(/Mac OS X (\d+(?:[_.]\d+)*)/.exec(ua)?.[1]);
    return { os: "macOS", osVersion: version === "10.15" ? null : version };
  }

  if (/\bLinux\b|\bX11\b/.test(ua)) return { os: "Linux", osVersion: null };
  return { os: "other", osVersion: null };
}

export function parseUserAgent(userAgent: string | null | undefined, hints: UserAgentHints = {}): ParsedUserAgent {
  const parsed = parse(userAgent ?? "", hints);
  return { ...parsed, platform: PLATFORM[parsed.os] };
}
