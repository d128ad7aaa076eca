import { DEFAULT_MATCH_WINDOW_MINUTES } from "@/lib/schemas/campaigns";
import type { ClickFingerprint, InstallFingerprint } from "./build-fingerprint";
import { networkKeys, relateNetworks, type NetworkKeys, type NetworkRelation } from "./ip-networks";
import { compareScreens, samePixelRatio } from "./screen-size";

/**
 * How sure are we that an install came from a given click? Odds, built like a naive-Bayes estimate:
 *
 *     odds = prior × delay × network × device
 *
 * Each factor (a likelihood ratio; its natural log is the part's weight) says how much likelier
 * what we see is when click and install are one device than when they are two:
 * - prior: the odds that an install without a deterministic token came from any click in the window
 *   at all, shared evenly among the window's unmatched clicks of that OS;
 * - delay: most first launches follow the click within minutes;
 * - network: the click's address (IPv4) or /64 (IPv6) again is strong evidence when few other
 *   visitors come from it, and weak for a carrier NAT address that dozens share;
 * - device: screen (sides and pixel ratio), OS version, timezone and locale agreeing is strong
 *   evidence for a rare phone and weak for the most popular phone of the audience.
 * "How common" is measured, not assumed: the share of the window's other clicks that agree with the
 * install in the same way, smoothed with `pseudoClicks` imaginary clicks toward a prior share, so a
 * quiet window falls back on the priors below. For the device, the prior share is itself measured
 * feature by feature (WindowStats.featureShares), so an audience in one timezone or on one phone
 * model is taken as it is.
 *
 * Hard mismatches veto: another OS, another screen, an OS older at install than at the click.
 *
 * The numbers are estimates, not a fit on labelled production data; bench/attribution measures
 * precision and recall with them on a synthetic population (its README). Installs that arrive with
 * a deterministic token, scored as if they had none, are the labelled data to fit them on later.
 */

/** P(what we see | same device) and, as a prior, P(what we see | another device of the same OS). */
export type Evidence = { sameDevice: number; otherDevice: number };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const MATCH_MODEL = {
  /**
   * Prior odds that an install arriving without a deterministic token came from one of the clicks in
   * the window rather than from none (organic, a click on another device, a click outside the
   * window). Per OS, because the deterministic paths differ: on Android the landing page's Play Store
   * link carries the code in the Install Referrer, so an Android install without one almost never came
   * from our link; on iOS the clipboard token is optional and often declined.
   */
  clickPriorOdds: { iOS: 0.2, Android: 0.03 },

  /** Imaginary clicks at the prior shares that every measured share is smoothed with. */
  pseudoClicks: 20,

  /**
   * The least prior share a device pattern gets. The features' priors below multiply to well under
   * 1% for a full agreement, but the most popular phone on the most common OS version in an
   * audience's one timezone and language is 3 to 6% of a national audience; until the window has
   * clicks to measure it, a full agreement must not count for more than that.
   */
  minDeviceShare: 0.03,

  /**
   * When the same device installs after clicking: share of installs per delay bucket (first launch
   * after the click). The likelihood ratio of a delay is its density here against a click time spread
   * evenly over the window.
   */
  delay: [
    { upToMs: 1 * MINUTE, share: 0.1 },
    { upToMs: 5 * MINUTE, share: 0.35 },
    { upToMs: 15 * MINUTE, share: 0.25 },
    { upToMs: 1 * HOUR, share: 0.15 },
    { upToMs: 2 * HOUR, share: 0.05 },
    { upToMs: 6 * HOUR, share: 0.05 },
    { upToMs: 24 * HOUR, share: 0.05 },
  ],

  /**
   * The network: the same IPv4 address or IPv6 /64; nearby: the same /24 or /48 (carrier pools);
   * other: another network or address family (Wi-Fi to cellular). Unknown (no address) is neutral.
   * `sameDevice`: where the same device opens the app after clicking. The shares are priors for
   * another visitor on the click's network: an IPv4 address may hide a café, an office or a carrier
   * NAT that this window happens to see once, so it is never taken for one home; an IPv6 /64 is one
   * home or one phone.
   */
  network: {
    sameDevice: { same: 0.75, nearby: 0.05, other: 0.15 },
    sameShare: { ipv4: 0.01, ipv6: 0.001 },
    nearbyShare: 0.01,
  },

  /** Screen in points/dp (screen-size.ts). Different sides veto. */
  screen: {
    same: { sameDevice: 0.9, otherDevice: 0.15 },
    /** Equal width, height within 10%: Android system bars counted on one side only. */
    sameWidth: { sameDevice: 0.08, otherDevice: 0.05 },
  },
  pixelRatio: {
    same: { sameDevice: 0.98, otherDevice: 0.6 },
    different: { sameDevice: 0.02, otherDevice: 0.4 },
  },

  /** OS version; an older version at install than at the click vetoes (no downgrades). */
  osVersion: {
    /** iOS major.minor equal. */
    same: { sameDevice: 0.93, otherDevice: 0.2 },
    /** Majors equal where one side has no minor (all of Android). */
    sameMajor: { sameDevice: 0.95, otherDevice: 0.4 },
    /** Same major, newer minor at install: a point update between click and install. */
    minorUpdate: { sameDevice: 0.04, otherDevice: 0.25 },
    /** Newer major at install. */
    majorUpdate: { sameDevice: 0.01, otherDevice: 0.3 },
  },

  /**
   * Timezone, then locale given the timezone (they move together: a country). Another timezone is
   * strong evidence against (a device has one); the same timezone is weak evidence for.
   */
  timezone: {
    same: { sameDevice: 0.98, otherDevice: 0.35 },
    different: { sameDevice: 0.02, otherDevice: 0.65 },
  },
  locale: {
    /** Given the same timezone. */
    withTimezone: {
      same: { sameDevice: 0.85, otherDevice: 0.7 },
      sameLanguage: { sameDevice: 0.1, otherDevice: 0.1 },
      otherLanguage: { sameDevice: 0.05, otherDevice: 0.2 },
    },
    /** When the timezone is unknown or differs. */
    alone: {
      same: { sameDevice: 0.85, otherDevice: 0.3 },
      sameLanguage: { sameDevice: 0.1, otherDevice: 0.15 },
      otherLanguage: { sameDevice: 0.05, otherDevice: 0.55 },
    },
  },
} as const;

export type MatchModel = typeof MATCH_MODEL;

export type VetoReason = "not_mobile" | "other_os" | "outside_window" | "other_screen" | "os_downgrade";

/** How a click agrees with an install, feature by feature (null: a side does not know). */
export type Agreement = {
  network: NetworkRelation;
  /** The click's address family, when the network is known. */
  family: 4 | 6 | null;
  screen: "same" | "sameWidth" | "different" | null;
  pixelRatio: "same" | "different" | null;
  osVersion: "same" | "sameMajor" | "minorUpdate" | "majorUpdate" | "downgrade" | null;
  timezone: "same" | "different" | null;
  locale: "same" | "sameLanguage" | "otherLanguage" | null;
};

/** Clicks of another OS or time never get an agreement; a hard mismatch keeps its agreement (for counting) and its veto. */
export type Comparison =
  | { veto: "not_mobile" | "other_os" | "outside_window" }
  | { veto: "other_screen" | "os_downgrade" | null; agreement: Agreement; delayMs: number };

type Version = { major: number; minor: number | null };
// Read once per distinct string: the matcher compares every click of a window with the install.
const versions = new Map<string, Version | null>();
const readVersion = (text: string | null): Version | null => {
  if (text === null) return null;
  let version = versions.get(text);
  if (version === undefined) {
    const m = /^(\d+)(?:\.(\d+))?/.exec(text);
    version = m ? { major: Number(m[1]), minor: m[2] === undefined ? null : Number(m[2]) } : null;
    if (versions.size < 1_000) versions.set(text, version);
  }
  return version;
};

function compareVersions(click: string | null, install: string | null): Agreement["osVersion"] {
  const a = readVersion(click);
  const b = readVersion(install);
  if (!a || !b) return null;
  if (b.major !== a.major) return b.major < a.major ? "downgrade" : "majorUpdate";
  if (a.minor === null || b.minor === null) return "sameMajor";
  if (b.minor !== a.minor) return b.minor < a.minor ? "downgrade" : "minorUpdate";
  return "same";
}

const language = (locale: string) => {
  const dash = locale.indexOf("-");
  return (dash < 0 ? locale : locale.slice(0, dash)).toLowerCase();
};

/** Locales are canonical (build-fingerprint.ts), so equal strings are equal locales. */
function compareLocales(a: string | null, b: string | null): Agreement["locale"] {
  if (a === null || b === null) return null;
  if (a === b) return "same";
  return language(a) === language(b) ? "sameLanguage" : "otherLanguage";
}

/** Feature-by-feature agreement of a click with an install, and the veto that rules the pair out if any. */
export function compareFingerprints(
  click: ClickFingerprint,
  install: InstallFingerprint,
  windowMs: number,
  clickNetwork: NetworkKeys | null = networkKeys(click.ip),
  installNetwork: NetworkKeys | null = networkKeys(install.ip),
): Comparison {
  if (click.os !== "iOS" && click.os !== "Android") return { veto: "not_mobile" };
  if (click.os !== install.os) return { veto: "other_os" };
  const delayMs = install.at.getTime() - click.createdAt.getTime();
  if (delayMs < 0 || delayMs > windowMs) return { veto: "outside_window" };
  const screen = click.screen && install.screen ? compareScreens(click.screen, install.screen) : null;
  const ratio = click.screen && install.screen ? samePixelRatio(click.screen, install.screen) : null;
  const agreement: Agreement = {
    network: relateNetworks(clickNetwork, installNetwork),
    family: clickNetwork?.family ?? null,
    screen: screen === "same_width" ? "sameWidth" : screen,
    pixelRatio: ratio === null ? null : ratio ? "same" : "different",
    osVersion: compareVersions(click.osVersion, install.osVersion),
    timezone: click.timezone === null || install.timezone === null ? null : click.timezone === install.timezone ? "same" : "different",
    locale: compareLocales(click.locale, install.locale),
  };
  const veto = agreement.screen === "different" ? "other_screen" : agreement.osVersion === "downgrade" ? "os_downgrade" : null;
  return { veto, agreement, delayMs };
}

// Outcomes as small numbers (1..15, 0 unknown), so a pattern is an integer: the matcher counts them
// for every click of the window.
const SIDES = { same: 1, sameWidth: 2, different: 3 } as const;
const RATIO = { same: 1, different: 2 } as const;
const VERSION = { same: 1, sameMajor: 2, minorUpdate: 3, majorUpdate: 4, downgrade: 5 } as const;
const TIMEZONE = { same: 1, different: 2 } as const;
const LOCALE = { same: 1, sameLanguage: 2, otherLanguage: 3 } as const;

/**
 * The device part of an agreement as three features, 4 bits each (0: unknown): the screen (sides
 * with pixel ratio, bits 0-3), the OS version (4-7), the region (timezone with locale, 8-11).
 * Features that move together are one feature, so that multiplying the features' shares
 * (WindowStats.featureShares) does not count one fact twice. Two clicks with equal patterns agree
 * with the install in the same way.
 */
export function devicePattern(a: Agreement): number {
  const screen = a.screen ? SIDES[a.screen] * 4 + (a.pixelRatio ? RATIO[a.pixelRatio] : 0) : 0;
  const version = a.osVersion ? VERSION[a.osVersion] : 0;
  const region = (a.timezone ? TIMEZONE[a.timezone] : 0) * 4 + (a.locale ? LOCALE[a.locale] : 0);
  return screen | (version << 4) | (region << 8);
}

export const DEVICE_FEATURE_SHIFTS = [0, 4, 8] as const;

/**
 * The bits of the features a pattern knows. Counting "how many other clicks agree like this one"
 * only over the features this click reveals (`other & mask`) keeps an unknown value neutral: a
 * browser that hides its OS version must not make its click look rare.
 */
export const knownBits = (pattern: number) => DEVICE_FEATURE_SHIFTS.reduce((mask: number, shift) => ((pattern >> shift) & 15 ? mask | (15 << shift) : mask), 0);

const times = (a: Evidence | null, b: Evidence | null): Evidence | null =>
  a && b ? { sameDevice: a.sameDevice * b.sameDevice, otherDevice: a.otherDevice * b.otherDevice } : (a ?? b);

/** The model's evidence for each known device feature (by its shift), null for a veto. */
export function deviceParts(a: Agreement, model: MatchModel): Array<{ shift: number; evidence: Evidence | null }> {
  const parts: Array<{ shift: number; evidence: Evidence | null }> = [];
  if (a.screen) {
    const sides = a.screen === "different" ? null : model.screen[a.screen];
    parts.push({ shift: 0, evidence: sides && times(sides, a.pixelRatio ? model.pixelRatio[a.pixelRatio] : null) });
  }
  if (a.osVersion) parts.push({ shift: 4, evidence: a.osVersion === "downgrade" ? null : model.osVersion[a.osVersion] });
  if (a.timezone || a.locale) {
    const timezone = a.timezone ? model.timezone[a.timezone] : null;
    const locale = a.locale ? model.locale[a.timezone === "same" ? "withTimezone" : "alone"][a.locale] : null;
    parts.push({ shift: 8, evidence: times(timezone, locale) });
  }
  return parts;
}

/** P(same device) and prior P(other device) of the device part, features taken as independent. */
function deviceEvidence(a: Agreement, model: MatchModel): Evidence {
  return deviceParts(a, model).reduce(
    (acc: Evidence, { evidence }) =>
      evidence ? { sameDevice: acc.sameDevice * evidence.sameDevice, otherDevice: acc.otherDevice * evidence.otherDevice } : { sameDevice: 0, otherDevice: 1 },
    { sameDevice: 1, otherDevice: 1 },
  );
}

/**
 * What the window around the install looked like, from the click's point of view; every count
 * leaves the click itself out. The defaults describe a window with this click alone, where the
 * prior shares decide.
 */
export type WindowStats = {
  windowMs: number;
  /** Unmatched clicks of the install's OS in the window, this one included: the prior is shared among them. */
  rivals: number;
  /** Other clicks of the project in the window (any OS, matched or not), and how many came from this
   * click's network and from its /24 or /48 (those of the same network included). */
  otherClicks: number;
  sameNetworkClicks: number;
  samePrefixClicks: number;
  /**
   * Other clicks of the install's OS in the window that know every device feature this click knows,
   * and how many of them agree with the install the way this click does (devicePattern).
   */
  otherSameOsClicks: number;
  samePatternClicks: number;
  /**
   * What the pattern's share would be if its features were independent: the product of each
   * feature's measured share (smoothed toward its prior). The joint count is smoothed toward it, so
   * a pattern the window has seen rarely leans on the audience's measured make-up (one country's
   * single timezone, its most popular phone) rather than on fixed priors. Default: the priors' product.
   */
  featureShares?: number;
};

/** The campaign's default match window (its home: src/lib/schemas/campaigns.ts). */
export const DEFAULT_WINDOW_MS = DEFAULT_MATCH_WINDOW_MINUTES * MINUTE;

const ALONE: Omit<WindowStats, "windowMs"> = {
  rivals: 1,
  otherClicks: 0,
  sameNetworkClicks: 0,
  samePrefixClicks: 0,
  otherSameOsClicks: 0,
  samePatternClicks: 0,
};

export type FingerprintScore = {
  veto: VetoReason | null;
  /** Odds that the install came from this click rather than from no click (0 when vetoed). */
  odds: number;
  /** odds / (1 + odds): the confidence if no other click competed. */
  score: number;
  /** Natural-log weight of each factor; their sum is ln(odds). */
  weights: { prior: number; delay: number; network: number; device: number };
};

function delayWeight(delayMs: number, windowMs: number, model: MatchModel): number {
  let from = 0;
  for (const bucket of model.delay) {
    if (delayMs <= bucket.upToMs) return Math.log((bucket.share / (bucket.upToMs - from)) * windowMs);
    from = bucket.upToMs;
  }
  return -Infinity;
}

/** A measured share, smoothed toward the prior with the model's pseudo-clicks. */
export const smoothed = (seen: number, of: number, prior: number, model: MatchModel) => (seen + model.pseudoClicks * prior) / (of + model.pseudoClicks);

function networkWeight(a: Agreement, stats: WindowStats, model: MatchModel): number {
  const { sameDevice, sameShare, nearbyShare } = model.network;
  const same = smoothed(stats.sameNetworkClicks, stats.otherClicks, a.family === 6 ? sameShare.ipv6 : sameShare.ipv4, model);
  const nearby = smoothed(stats.samePrefixClicks - stats.sameNetworkClicks, stats.otherClicks, nearbyShare, model);
  switch (a.network) {
    case "same":
      return Math.log(sameDevice.same / same);
    case "nearby":
      return Math.log(sameDevice.nearby / nearby);
    case "other":
      return Math.log(sameDevice.other / Math.max(0.05, 1 - same - nearby));
    case "unknown":
      return 0;
  }
}

/** Scores a comparison in its window (see WindowStats). */
export function scoreComparison(comparison: Comparison, os: "iOS" | "Android", stats: WindowStats, model: MatchModel = MATCH_MODEL): FingerprintScore {
  if (comparison.veto !== null) return { veto: comparison.veto, odds: 0, score: 0, weights: { prior: 0, delay: 0, network: 0, device: 0 } };
  const { agreement, delayMs } = comparison;
  const device = deviceEvidence(agreement, model);
  const weights = {
    prior: Math.log(model.clickPriorOdds[os] / Math.max(1, stats.rivals)),
    delay: delayWeight(delayMs, stats.windowMs, model),
    network: networkWeight(agreement, stats, model),
    device: Math.log(
      device.sameDevice /
        smoothed(stats.samePatternClicks, stats.otherSameOsClicks, Math.max(model.minDeviceShare, stats.featureShares ?? device.otherDevice), model),
    ),
  };
  const odds = Math.exp(weights.prior + weights.delay + weights.network + weights.device);
  return { veto: null, odds, score: odds / (1 + odds), weights };
}

/** One click against one install, as if it were the only click in a window of `windowMs`. */
export function scoreFingerprint(
  click: ClickFingerprint,
  install: InstallFingerprint,
  windowMs: number = DEFAULT_WINDOW_MS,
  model: MatchModel = MATCH_MODEL,
): FingerprintScore {
  const comparison = compareFingerprints(click, install, windowMs);
  const os = install.os === "Android" ? "Android" : "iOS";
  return scoreComparison(comparison, os, { windowMs, ...ALONE }, model);
}
