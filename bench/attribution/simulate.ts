/**
 * One simulated campaign: clicks on referral links, the installs that follow some of them (after
 * seconds to hours, some with a deterministic token), organic installs from the same population and
 * networks, then the first launches replayed in time order through the real matcher, the way the
 * server will run it: deterministic tokens bind first, the fingerprint fallback only without one.
 */
import { buildClickFingerprint, buildInstallFingerprint, type InstallFingerprint } from "@/server/domain/attribution/build-fingerprint";
import { DEFAULT_WINDOW_MS, matchClick, type ClickCandidate, type MatchResult } from "@/server/domain/attribution/match-click";
import { Random } from "./random";
import {
  appDevice,
  attachAtClick,
  attachAtInstall,
  clickPayload,
  createDevice,
  createWorld,
  maybeUpdate,
  userAgent,
  type WorldOptions,
} from "./world";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export type Scenario = {
  name: string;
  description: string;
  world: WorldOptions;
  hours: number;
  clicksPerHour: number;
  /** Share of first clicks whose device installs and opens the app. */
  installRate: number;
  /** Organic installs (no click) per install that came from a click. */
  organicPerReferredInstall: number;
  /** Share of clicks followed by a second tap on the same link within minutes. */
  repeatClickRate: number;
  referrers: number;
  /** Share of installs that arrive with a deterministic token (Play Install Referrer, clipboard). */
  deterministic: { iOS: number; Android: number };
};

type SimClick = ClickCandidate & { deviceId: number };
type SimInstall = {
  at: number;
  fingerprint: InstallFingerprint;
  /** The click the install really came from (its device's first click), null for organic installs. */
  source: SimClick | null;
  deterministic: boolean;
};

export type Population = { clicks: SimClick[]; installs: SimInstall[] };

/** Install delay: most first launches within minutes, a second population over hours. */
function installDelay(random: Random): number {
  return random.chance(0.85) ? random.logNormal(3 * MINUTE, 1.0) : random.logNormal(40 * MINUTE, 1.2);
}

export function generate(scenario: Scenario, seed: number): Population {
  const random = new Random(seed);
  const world = createWorld(random, scenario.world);
  const clicks: SimClick[] = [];
  const installs: SimInstall[] = [];
  const start = Date.UTC(2026, 10, 2, 8);
  const end = start + scenario.hours * HOUR;
  const codes = Array.from({ length: scenario.referrers }, (_, i) => `R${String(i).padStart(5, "0")}`);

  const addClick = (deviceId: number, at: number, ua: string, ip: string, payload: ReturnType<typeof clickPayload>, code: string) => {
    const click: SimClick = {
      ...buildClickFingerprint({ userAgent: ua, ip, payload, createdAt: new Date(at) }),
      id: `c${clicks.length}`,
      referralCode: code,
      rewardEventName: null,
      matchedAt: null,
      deviceId,
    };
    clicks.push(click);
    return click;
  };

  let referredInstalls = 0;
  for (let at = start + random.gap(scenario.clicksPerHour / HOUR); at < end; at += random.gap(scenario.clicksPerHour / HOUR)) {
    const device = createDevice(random, world);
    const network = attachAtClick(random, world, device);
    const code = codes[random.zipf(codes.length)]!;
    const ua = userAgent(device);
    const payload = clickPayload(random, device);
    const first = addClick(device.id, at, ua, network.ip, payload, code);
    if (random.chance(scenario.repeatClickRate)) addClick(device.id, at + random.next() * 10 * MINUTE, ua, network.ip, payload, code);
    if (!random.chance(scenario.installRate)) continue;
    const delay = installDelay(random);
    const later = maybeUpdate(random, device);
    const installNetwork = attachAtInstall(random, device, network, delay);
    installs.push({
      at: at + delay,
      fingerprint: buildInstallFingerprint(appDevice(later), installNetwork.ip, new Date(at + delay)),
      source: first,
      deterministic: random.chance(scenario.deterministic[device.os]),
    });
    referredInstalls++;
  }
  const organic = Math.round(referredInstalls * scenario.organicPerReferredInstall);
  for (let i = 0; i < organic; i++) {
    const device = createDevice(random, world);
    const at = start + random.next() * (end - start);
    // Organic installers use the same networks as everybody: at home, on the carrier, in a café.
    const network = attachAtClick(random, world, device);
    installs.push({ at, fingerprint: buildInstallFingerprint(appDevice(device), network.ip, new Date(at)), source: null, deterministic: false });
  }
  clicks.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  installs.sort((a, b) => a.at - b.at);
  return { clicks, installs };
}

export type Matcher = (window: readonly SimClick[], install: InstallFingerprint) => MatchResult<SimClick>;

export const fingerprintMatcher =
  (threshold: number, windowMs = DEFAULT_WINDOW_MS): Matcher =>
  (window, install) =>
    matchClick(window, install, { threshold, windowMs });

/**
 * The naive matcher many systems start with, for comparison: the most recent unmatched click with
 * the same IP address and OS in the window.
 */
export const naiveMatcher: Matcher = (window, install) => {
  for (let i = window.length - 1; i >= 0; i--) {
    const click = window[i]!;
    if (click.matchedAt === null && click.ip === install.ip && click.os === install.os)
      return { outcome: "matched", click, confidence: 1, considered: 1 };
  }
  return { outcome: "none", reason: "no_candidates", confidence: 0, considered: 0 };
};

export type Outcome = {
  installs: number;
  referred: number;
  deterministic: number;
  /** Referred installs without a token whose click was inside the window: what the fingerprint can find. */
  findable: number;
  matched: number;
  correct: number;
  /** Correct referral, but another click of it (a repeated tap): same referrer credited. */
  correctOtherClick: number;
  wrongReferral: number;
  organicMatched: number;
  ambiguous: number;
};

export function replay(population: Population, matcher: Matcher, windowMs = DEFAULT_WINDOW_MS): Outcome {
  const clicks = population.clicks.map((c) => ({ ...c, matchedAt: null as Date | null }));
  const byId = new Map(clicks.map((c) => [c.id, c]));
  const outcome: Outcome = {
    installs: population.installs.length,
    referred: 0,
    deterministic: 0,
    findable: 0,
    matched: 0,
    correct: 0,
    correctOtherClick: 0,
    wrongReferral: 0,
    organicMatched: 0,
    ambiguous: 0,
  };
  let lo = 0;
  let hi = 0;
  for (const install of population.installs) {
    while (hi < clicks.length && clicks[hi]!.createdAt.getTime() <= install.at) hi++;
    while (lo < hi && clicks[lo]!.createdAt.getTime() < install.at - windowMs) lo++;
    const source = install.source ? byId.get(install.source.id)! : null;
    if (source) outcome.referred++;
    if (source && install.deterministic) {
      outcome.deterministic++;
      source.matchedAt ??= new Date(install.at);
      continue;
    }
    if (source && install.at - source.createdAt.getTime() <= windowMs) outcome.findable++;
    const result = matcher(clicks.slice(lo, hi), install.fingerprint);
    if (result.outcome === "none") {
      if (result.reason === "ambiguous") outcome.ambiguous++;
      continue;
    }
    result.click.matchedAt = new Date(install.at);
    outcome.matched++;
    if (!source) outcome.organicMatched++;
    else if (result.click.referralCode !== source.referralCode) outcome.wrongReferral++;
    else if (result.click.id === source.id) outcome.correct++;
    else outcome.correctOtherClick++;
  }
  return outcome;
}

/** Precision and recall count the referrer credited: another click of the same referral is right. */
export function rates(o: Outcome) {
  const right = o.correct + o.correctOtherClick;
  return {
    precision: o.matched === 0 ? 1 : right / o.matched,
    recall: o.findable === 0 ? 0 : right / o.findable,
    deterministicShare: o.referred === 0 ? 0 : o.deterministic / o.referred,
    /** Of all installs that came from a click, the share credited to the right referrer by either path. */
    attributedShare: o.referred === 0 ? 0 : (o.deterministic + right) / o.referred,
  };
}
