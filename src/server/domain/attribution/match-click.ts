import { MAX_MATCH_WINDOW_MINUTES, MIN_MATCH_WINDOW_MINUTES } from "@/lib/schemas/campaigns";
import type { ClickFingerprint, InstallFingerprint } from "./build-fingerprint";
import { networkKeys, type NetworkKeys } from "./ip-networks";
import {
  compareFingerprints,
  DEFAULT_WINDOW_MS,
  DEVICE_FEATURE_SHIFTS,
  deviceParts,
  devicePattern,
  knownBits,
  MATCH_MODEL,
  scoreComparison,
  smoothed,
  type Agreement,
  type Comparison,
  type MatchModel,
  type WindowStats,
} from "./score-fingerprint";

/**
 * The fingerprint fallback of first-launch attribution: which click of the project, if any, did this
 * install come from? Deterministic tokens (a tracking id or code the app stored, the Play Install
 * Referrer, the clipboard token, a link opened after install) are tried by the caller first and
 * always win: the fingerprint is only asked when none of them is present.
 *
 * Every unmatched click in the window gets odds (score-fingerprint.ts). Clicks that carry the same
 * referral (code and reward event name) are pooled, because binding any of them credits the same
 * referrer: a visitor who tapped the link twice is not an ambiguity. The confidence of a referral is
 * its share of all the evidence, the "came from no click" hypothesis included:
 *
 *     confidence(referral) = sum of its clicks' odds / (1 + sum of every click's odds)
 *
 * With one candidate this is its score. Two strangers behind one carrier address with the same phone
 * who followed different referrers' links split the evidence and neither reaches the threshold: we
 * refuse rather than guess, because a wrong referrer is worse than none. The most confident referral
 * is bound when it reaches the threshold, through its best click, the most recent among equals.
 */

const MINUTE = 60_000;
/** The window's bounds; the campaign's `matchWindowMinutes` (src/lib/schemas/campaigns.ts) is their home. */
export const MIN_WINDOW_MS = MIN_MATCH_WINDOW_MINUTES * MINUTE;
export const MAX_WINDOW_MS = MAX_MATCH_WINDOW_MINUTES * MINUTE;
export { DEFAULT_WINDOW_MS };

/**
 * The confidence a referral needs to be bound. Chosen with the simulation (bench/attribution), which
 * measured precision >= 95% at this value across its scenarios; lower values trade precision for recall.
 */
export const DEFAULT_MATCH_THRESHOLD = 0.9;

export type ClickCandidate = ClickFingerprint & {
  id: string;
  referralCode: string;
  rewardEventName: string | null;
  /** Set once an install was attributed to the click; such clicks are never bound again. */
  matchedAt: Date | null;
};

export type MatchOptions = { windowMs?: number; threshold?: number; model?: MatchModel };

export type MatchResult<C> =
  | { outcome: "matched"; click: C; confidence: number; considered: number }
  | {
      outcome: "none";
      /**
       * no_candidates: no unmatched click of the install's OS in the window survived the vetoes.
       * ambiguous: a click alone would have passed, but clicks of other referrals explain the install
       * about as well. below_threshold: the evidence is too weak.
       */
      reason: "no_candidates" | "ambiguous" | "below_threshold";
      confidence: number;
      considered: number;
    };

const referralKey = (c: ClickCandidate) => `${c.referralCode}\u0000${c.rewardEventName ?? ""}`;

/**
 * `clicks`: every click of the project in the window before the install, matched ones too (they
 * tell how crowded a network is); clicks outside the window are ignored, so passing a wider set is
 * harmless. Pure: binding the chosen click exactly once is the caller's job (a conditional update
 * `... WHERE matchedAt IS NULL`; when it updates nothing, another first launch won the click: reload
 * the window's clicks and match again).
 */
export function matchClick<C extends ClickCandidate>(
  clicks: readonly C[],
  install: InstallFingerprint,
  options: MatchOptions = {},
): MatchResult<C> {
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const threshold = options.threshold ?? DEFAULT_MATCH_THRESHOLD;
  const model = options.model ?? MATCH_MODEL;
  if (!(windowMs >= MIN_WINDOW_MS && windowMs <= MAX_WINDOW_MS)) throw new RangeError(`Match window out of range: ${windowMs} ms`);
  const none = (reason: "no_candidates" | "ambiguous" | "below_threshold", confidence = 0, considered = 0): MatchResult<C> => ({
    outcome: "none",
    reason,
    confidence,
    considered,
  });
  if (install.os !== "iOS" && install.os !== "Android") return none("no_candidates");
  const os = install.os;

  const installAt = install.at.getTime();
  const installNetwork = networkKeys(install.ip);
  const byNetwork = new Map<string, number>();
  const byPrefix = new Map<string, number>();
  let inWindow = 0;
  let rivals = 0;
  // Every click of the OS in the window, matched or not, tells how common each way of agreeing with
  // the install is (counted per device pattern); the unmatched ones without a veto are the candidates.
  const patterns = new Map<number, number>();
  const candidates: Array<{ click: C; keys: NetworkKeys | null; comparison: Comparison; agreement: Agreement; pattern: number }> = [];
  for (const click of clicks) {
    const delay = installAt - click.createdAt.getTime();
    if (delay < 0 || delay > windowMs) continue;
    inWindow++;
    const keys = networkKeys(click.ip);
    if (keys) {
      byNetwork.set(keys.network, (byNetwork.get(keys.network) ?? 0) + 1);
      byPrefix.set(keys.prefix, (byPrefix.get(keys.prefix) ?? 0) + 1);
    }
    const comparison = compareFingerprints(click, install, windowMs, keys, installNetwork);
    if (!("agreement" in comparison)) continue;
    const pattern = devicePattern(comparison.agreement);
    patterns.set(pattern, (patterns.get(pattern) ?? 0) + 1);
    if (click.matchedAt !== null) continue;
    rivals++;
    if (comparison.veto === null) candidates.push({ click, keys, comparison, agreement: comparison.agreement, pattern });
  }

  // Per device feature: how many clicks know it, and how they agree with the install.
  const knowing = new Map<number, number>();
  const agreeing = new Map<number, number>();
  for (const [pattern, count] of patterns) {
    for (const shift of DEVICE_FEATURE_SHIFTS) {
      const outcome = (pattern >> shift) & 15;
      if (outcome === 0) continue;
      knowing.set(shift, (knowing.get(shift) ?? 0) + count);
      agreeing.set(outcome << shift, (agreeing.get(outcome << shift) ?? 0) + count);
    }
  }
  const featureShares = (agreement: Agreement, pattern: number) =>
    deviceParts(agreement, model).reduce((product, { shift, evidence }) => {
      const outcome = pattern & (15 << shift);
      return product * smoothed(agreeing.get(outcome)! - 1, knowing.get(shift)! - 1, evidence!.otherDevice, model);
    }, 1);

  // How many clicks reveal the features a candidate reveals, and how many agree like it on them.
  const alikeCounts = new Map<number, { revealing: number; alike: number }>();
  const revealingAlike = (pattern: number) => {
    let counts = alikeCounts.get(pattern);
    if (!counts) {
      const mask = knownBits(pattern);
      counts = { revealing: 0, alike: 0 };
      for (const [other, count] of patterns) {
        if ((knownBits(other) & mask) === mask) counts.revealing += count;
        if ((other & mask) === pattern) counts.alike += count;
      }
      alikeCounts.set(pattern, counts);
    }
    return counts;
  };

  const scored = candidates
    .map(({ click, keys, comparison, agreement, pattern }) => {
      const { revealing, alike } = revealingAlike(pattern);
      const stats: WindowStats = {
        windowMs,
        rivals,
        otherClicks: inWindow - 1,
        sameNetworkClicks: keys ? byNetwork.get(keys.network)! - 1 : 0,
        samePrefixClicks: keys ? byPrefix.get(keys.prefix)! - 1 : 0,
        otherSameOsClicks: revealing - 1,
        samePatternClicks: alike - 1,
        featureShares: featureShares(agreement, pattern),
      };
      return { click, ...scoreComparison(comparison, os, stats, model) };
    })
    .filter((s) => s.odds > 0);
  if (scored.length === 0) return none("no_candidates");

  let total = 0;
  const referrals = new Map<string, { clicks: typeof scored; odds: number }>();
  for (const s of scored) {
    total += s.odds;
    const key = referralKey(s.click);
    const group = referrals.get(key);
    if (group) {
      group.clicks.push(s);
      group.odds += s.odds;
    } else referrals.set(key, { clicks: [s], odds: s.odds });
  }
  const best = [...referrals.values()].reduce((a, b) => (b.odds > a.odds ? b : a));
  const confidence = best.odds / (1 + total);
  if (confidence < threshold) {
    const alone = Math.max(...best.clicks.map((s) => s.score));
    return none(alone >= threshold ? "ambiguous" : "below_threshold", confidence, scored.length);
  }
  const chosen = best.clicks.reduce((a, b) =>
    b.odds > a.odds * (1 + 1e-9) || (b.odds >= a.odds * (1 - 1e-9) && b.click.createdAt > a.click.createdAt) ? b : a,
  );
  return { outcome: "matched", click: chosen.click, confidence, considered: scored.length };
}
