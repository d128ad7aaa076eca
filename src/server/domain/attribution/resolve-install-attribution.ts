import type { Prisma } from "@/generated/prisma/client";
import { DEFAULT_MATCH_WINDOW_MINUTES } from "@/lib/schemas/campaigns";
import { buildInstallFingerprint, fromLinkClick, type LinkClickRow } from "./build-fingerprint";
import { readClipboardToken } from "./clipboard-token";
import type { DeviceInput } from "@/lib/schemas/attribution";
import { parseInstallReferrer } from "./install-referrer";
import { DEFAULT_MATCH_THRESHOLD, matchClick, type ClickCandidate } from "./match-click";
import { parseDeepLink } from "./parse-deep-link";

/** What a first launch sent besides its user (init-app-user's mobile fields) and where it came from. */
export type InstallSignals = {
  projectId: string;
  /** The Google Play Install Referrer string. */
  installReferrer?: string | null;
  /** The landing page's clipboard token (`referloop:<token>` or the bare token). */
  clipboardToken?: string | null;
  /** A universal/app link opened after install. */
  deepLink?: string | null;
  /** The device, for the fingerprint fallback. */
  device?: DeviceInput | null;
  /** The client's address (requestClientIp), for the fingerprint. */
  ip: string | null;
  now: Date;
  /** The app user being attributed: recorded on the click it is matched to. */
  appUserId?: string | null;
};

export type AttributionMethod = "install_referrer" | "clipboard" | "link" | "fingerprint" | "none";

/** What the caller binds: a referral code (with its pre-assigned event) or an existing tracking item. */
export type ReferralToBind = { referralCode: string; rewardEventName: string | null } | { referralTrackingId: string };

export type InstallAttribution =
  | {
      method: Exclude<AttributionMethod, "none">;
      /** 1 for the deterministic methods; the matcher's confidence for a fingerprint. */
      confidence: number;
      bind: ReferralToBind;
      /** The landing-page click now marked as matched, if any. */
      clickId: string | null;
    }
  | {
      method: "none";
      confidence: 0;
      /**
       * no_signal: nothing to go on; no_candidates / ambiguous / below_threshold: the matcher's verdict
       * (match-click.ts); taken: every candidate was won by concurrent first launches.
       */
      reason: "no_signal" | "no_candidates" | "ambiguous" | "below_threshold" | "taken";
    };

export type ResolveOptions = {
  /** Keys that may have signed a clipboard token (clipboardSecrets(config).all). */
  clipboardKeys: readonly (string | Buffer)[];
  threshold?: number;
};

/** Rounds of "reload and match again" after losing a click to a concurrent first launch. */
const MAX_ROUNDS = 3;
/** The window's clicks read at most (newest first): bounds the matcher's work on a flooded project. */
const MAX_WINDOW_CLICKS = 10_000;
const MINUTE = 60_000;

type Db = Prisma.TransactionClient;

/**
 * How a Mobile app's first launch came to be installed, in order of certainty: the Play Install
 * Referrer, the clipboard token, a link opened after install (each deterministic: confidence 1), then
 * the device fingerprint matched against the project's unmatched landing-page clicks in the
 * campaign's match window (confidence: the matcher's). A deterministic token naming a referral code
 * the project does not have is ignored, and the next signal is tried.
 *
 * A click is bound once: the click a token names, or the fingerprint chose, is marked with a
 * conditional update (`matchedAt IS NULL`). A clipboard token is one-time through it (a second install
 * with it gets nothing from it); an install referrer is certain whatever the click's state (Play hands
 * it to this install only). When a concurrent first launch took the chosen click first, the window is
 * read again and matched again (the taken click now counts as matched), up to MAX_ROUNDS times.
 *
 * It returns what to bind; binding the user as the referee is the caller's (init-app-user's). Run both
 * in one transaction (pass it as `db`) to release the click when the binding fails.
 */
export async function resolveInstallAttribution(db: Db, signals: InstallSignals, options: ResolveOptions): Promise<InstallAttribution> {
  const { projectId, now } = signals;
  const mark = (clickId: string, method: AttributionMethod) =>
    db.$executeRaw`
      UPDATE "LinkClick" SET "matchedAt" = ${now}, "matchedAppUserId" = ${signals.appUserId ?? null}, "matchMethod" = ${method}
      WHERE "id" = ${clickId} AND "projectId" = ${projectId} AND "matchedAt" IS NULL`;
  const codeExists = async (referralCode: string) =>
    (await db.appUser.count({ where: { projectId, referralCode } })) > 0;
  let windowMinutes: number | undefined;
  const matchWindowMinutes = async () =>
    (windowMinutes ??= (await db.campaign.findUnique({ where: { projectId }, select: { matchWindowMinutes: true } }))?.matchWindowMinutes ?? DEFAULT_MATCH_WINDOW_MINUTES);

  // 1. Google Play's install referrer: the Play Store link of our landing page carried it.
  const referrer = parseInstallReferrer(signals.installReferrer);
  if (referrer.referralCode && (await codeExists(referrer.referralCode))) {
    if (referrer.clickId) await mark(referrer.clickId, "install_referrer");
    return {
      method: "install_referrer",
      confidence: 1,
      bind: { referralCode: referrer.referralCode, rewardEventName: referrer.rewardEventName },
      clickId: referrer.clickId,
    };
  }

  // 2. The clipboard token of the landing page's "copy the code": signed, one-time through its click.
  if (signals.clipboardToken) {
    const maxAgeMs = (await matchWindowMinutes()) * MINUTE;
    const token = options.clipboardKeys.map((key) => readClipboardToken(signals.clipboardToken, key, now, maxAgeMs)).find(Boolean);
    if (token && token.projectId === projectId && (await codeExists(token.referralCode))) {
      // The click, marked; or inserted as matched when the page's beacon never arrived.
      const taken = await db.$executeRaw`
        INSERT INTO "LinkClick" ("id", "projectId", "referralCode", "rewardEventName", "createdAt", "matchedAt", "matchedAppUserId", "matchMethod")
        VALUES (${token.clickId}, ${projectId}, ${token.referralCode}, ${token.rewardEventName}, ${token.issuedAt}, ${now}, ${signals.appUserId ?? null}, 'clipboard')
        ON CONFLICT ("id") DO UPDATE SET "matchedAt" = EXCLUDED."matchedAt", "matchedAppUserId" = EXCLUDED."matchedAppUserId", "matchMethod" = 'clipboard'
        WHERE "LinkClick"."matchedAt" IS NULL AND "LinkClick"."projectId" = EXCLUDED."projectId"`;
      if (taken === 1) {
        return { method: "clipboard", confidence: 1, bind: { referralCode: token.referralCode, rewardEventName: token.rewardEventName }, clickId: token.clickId };
      }
    }
  }

  // 3. A universal/app link that opened the app.
  const link = parseDeepLink(signals.deepLink, projectId);
  if (link) {
    const exists =
      "referralTrackingId" in link
        ? (await db.referralTracking.count({ where: { id: link.referralTrackingId, projectId } })) > 0
        : await codeExists(link.referralCode);
    if (exists) return { method: "link", confidence: 1, bind: link, clickId: null };
  }

  // 4. The device's fingerprint against the window's clicks.
  if (!signals.device) return { method: "none", confidence: 0, reason: "no_signal" };
  const windowMs = (await matchWindowMinutes()) * MINUTE;
  const install = buildInstallFingerprint(signals.device, signals.ip, now);
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const rows = await db.$queryRaw<Array<LinkClickRow & { id: string; referralCode: string; rewardEventName: string | null; matchedAt: Date | null }>>`
      SELECT "id", "referralCode", "rewardEventName", "os", "osVersion", "screenSize", "timezone", "locale", "ipAddress", "userAgent", "createdAt", "matchedAt"
      FROM "LinkClick"
      WHERE "projectId" = ${projectId} AND "createdAt" >= ${new Date(now.getTime() - windowMs)} AND "createdAt" <= ${now}
      ORDER BY "createdAt" DESC
      LIMIT ${MAX_WINDOW_CLICKS}`;
    const clicks: ClickCandidate[] = rows.map((row) => ({
      ...fromLinkClick(row),
      id: row.id,
      referralCode: row.referralCode,
      rewardEventName: row.rewardEventName,
      matchedAt: row.matchedAt,
    }));
    const result = matchClick(clicks, install, { windowMs, threshold: options.threshold ?? DEFAULT_MATCH_THRESHOLD });
    if (result.outcome === "none") return { method: "none", confidence: 0, reason: round > 1 && result.reason === "no_candidates" ? "taken" : result.reason };
    if ((await mark(result.click.id, "fingerprint")) === 1) {
      return {
        method: "fingerprint",
        confidence: result.confidence,
        bind: { referralCode: result.click.referralCode, rewardEventName: result.click.rewardEventName },
        clickId: result.click.id,
      };
    }
  }
  return { method: "none", confidence: 0, reason: "taken" };
}
