import { normalizeIp } from "@/lib/ip-address";
import type { ClickPayload, DeviceInput } from "@/lib/schemas/attribution";
import { parseUserAgent, type OsName } from "./parse-user-agent";
import { formatScreenSize, normalizeScreen, parseScreenSize, type ScreenSize } from "./screen-size";

/**
 * One device as seen at a click (landing page) or at an install (the app's first init-app-user),
 * every field normalised the same way so the matcher compares like with like. null: unknown.
 */
export type Fingerprint = {
  os: OsName | null;
  /** iOS "major.minor", Android "major". */
  osVersion: string | null;
  screen: ScreenSize | null;
  /** IANA name, canonicalised by this server's ICU (so aliases like Asia/Calcutta and Asia/Kolkata agree). */
  timezone: string | null;
  /** BCP 47, canonical case ("de-DE"). */
  locale: string | null;
  ip: string | null;
};

export type ClickFingerprint = Fingerprint & { createdAt: Date };
export type InstallFingerprint = Fingerprint & { at: Date };

// Building an Intl.DateTimeFormat is slow; an audience has few timezones.
const timezones = new Map<string, string | null>();

function canonicalTimezone(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let canonical = timezones.get(raw);
  if (canonical === undefined) {
    try {
      canonical = new Intl.DateTimeFormat("en-US", { timeZone: raw }).resolvedOptions().timeZone;
    } catch {
      canonical = null;
    }
    if (timezones.size < 1_000) timezones.set(raw, canonical);
  }
  return canonical;
}

function canonicalLocale(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    return Intl.getCanonicalLocales(raw.replace(/_/g, "-"))[0] ?? null;
  } catch {
    return null;
  }
}

function mobileOs(raw: string): OsName | null {
  const value = raw.trim().toLowerCase();
  if (value === "ios" || value === "ipados") return "iOS";
  if (value === "android") return "Android";
  return null;
}

function appOsVersion(os: OsName | null, raw: string | null | undefined): string | null {
  const parts = /^(\d+)(?:\.(\d+))?/.exec(raw?.trim() ?? "");
  if (!parts) return null;
  const major = String(Number(parts[1]));
  if (os === "Android") return major;
  return parts[2] === undefined ? major : `${major}.${Number(parts[2])}`;
}

/** The landing page's click: OS from the user agent (corrected by the page's hints), the rest from its script. */
export function buildClickFingerprint(input: {
  userAgent: string | null | undefined;
  ip: string | null | undefined;
  payload: Omit<ClickPayload, "clickId"> | null;
  createdAt: Date;
}): ClickFingerprint {
  const payload = input.payload;
  const { os, osVersion } = parseUserAgent(input.userAgent, {
    maxTouchPoints: payload?.maxTouchPoints,
    platformVersion: payload?.platformVersion,
  });
  return {
    os,
    osVersion,
    screen: normalizeScreen(payload?.screenWidth, payload?.screenHeight, payload?.pixelRatio),
    timezone: canonicalTimezone(payload?.timezone),
    locale: canonicalLocale(payload?.locale),
    ip: normalizeIp(input.ip),
    createdAt: input.createdAt,
  };
}

/** The app's first launch: the `device` of init-app-user and the request's client IP. */
export function buildInstallFingerprint(device: DeviceInput, ip: string | null | undefined, at: Date): InstallFingerprint {
  const os = mobileOs(device.os);
  return {
    os,
    osVersion: appOsVersion(os, device.osVersion),
    screen: normalizeScreen(device.screenWidth, device.screenHeight, device.pixelRatio),
    timezone: canonicalTimezone(device.timezone),
    locale: canonicalLocale(device.locale),
    ip: normalizeIp(ip),
    at,
  };
}

/**
 * LinkClick's columns for a click fingerprint. `osVersion` has no column yet (the wiring's migration
 * should add `osVersion String?`); until then `fromLinkClick` re-reads it from the stored user agent,
 * which loses the page's hints (real Android versions, iPads in desktop mode).
 */
export function toLinkClickColumns(click: ClickFingerprint) {
  return {
    os: click.os,
    osVersion: click.osVersion,
    screenSize: click.screen ? formatScreenSize(click.screen) : null,
    timezone: click.timezone,
    locale: click.locale,
    ipAddress: click.ip,
  };
}

export type LinkClickRow = {
  os: string | null;
  osVersion?: string | null;
  screenSize: string | null;
  timezone: string | null;
  locale: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Date;
};

export function fromLinkClick(row: LinkClickRow): ClickFingerprint {
  const parsed = parseUserAgent(row.userAgent);
  const os = (row.os as OsName | null) ?? parsed.os;
  return {
    os,
    osVersion: row.osVersion !== undefined ? row.osVersion : os === parsed.os ? parsed.osVersion : null,
    screen: parseScreenSize(row.screenSize),
    timezone: row.timezone,
    locale: row.locale,
    ip: row.ipAddress,
    createdAt: row.createdAt,
  };
}
