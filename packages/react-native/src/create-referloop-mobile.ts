import { ReferloopError } from "./errors.ts";
import { parseReferralLink } from "./parse-link.ts";
import { postJson } from "./post-json.ts";
import type {
  AppUser,
  Attribution,
  AttributionMethod,
  DeviceInfo,
  IdentifyInput,
  LinkReferral,
  ReferloopMobileOptions,
  ReferralSummary,
  ReferrerExperience,
} from "./types.ts";

/**
 * Referloop for React Native and similar runtimes: no native dependency, the app passes a storage
 * adapter and a device adapter (README.md here shows the wiring).
 *
 * Storage keys: the spec's `svc_ref_code` (a referral code from a link the app opened) and
 * `svc_tracked_referral` (the tracking id of the referral this user came by, for your backend's
 * track-reward-event), plus `svc_first_launch`: what the first launch found (Install Referrer,
 * clipboard token), kept until init-app-user has received it once.
 */
export const STORAGE_KEYS = {
  referralCode: "svc_ref_code",
  trackedReferral: "svc_tracked_referral",
  firstLaunch: "svc_first_launch",
} as const;

export const CLIPBOARD_PREFIX = "referloop:";

export type IdentifyResult = { ok: true; user: AppUser } | { ok: false; error: ReferloopError };
export type ReferralSummaryResult = { ok: true; summary: ReferralSummary } | { ok: false; error: ReferloopError };
export type HandleLinkResult = { handled: false } | { handled: true; referral: LinkReferral; identify: IdentifyResult | null };

export type ReferloopMobile = {
  /**
   * Reads what only the first launch can (Install Referrer, clipboard token) and the link that
   * opened the app. Call it when the app starts, before sign-in: the clipboard may change later.
   * identify() calls it if you did not. Never throws.
   */
  start(): Promise<void>;
  /** init-app-user for the signed-in user, with every attribution signal the app has. Never throws. */
  identify(input: IdentifyInput): Promise<IdentifyResult>;
  /** A link opened while the app runs (Linking "url" events): keeps its referral and, once identified, sends it. */
  handleLink(url: string): Promise<HandleLinkResult>;
  getReferralLink(): string | null;
  getReferralCode(): string | null;
  getAttribution(): Attribution | null;
  getUser(): AppUser | null;
  /** The tracking id your backend passes to track-reward-event with this user's id. */
  getTrackedReferral(): Promise<string | null>;
  /**
   * The identified user's own referrals as typed data (the hosted portal page's summary): link,
   * totals, a page of referred friends, rewards, milestones; draw it natively. Needs identify() with
   * a `userHash` first (the publishable key gets nothing about a user without one). Never throws.
   */
  getReferralSummary(options?: { page?: number; pageSize?: number }): Promise<ReferralSummaryResult>;
};

type FirstLaunch = { installReferrer: string | null; clipboardToken: string | null; delivered: boolean };

/** Every method the server names (a missing or extra one fails the type check). */
const METHODS: Record<AttributionMethod, true> = { install_referrer: true, clipboard: true, link: true, fingerprint: true, cookie: true, none: true };
const MAX_SIGNAL = 2048;

export function createReferloopMobile(options: ReferloopMobileOptions): ReferloopMobile {
  const key = options.key?.trim();
  if (!key) throw new TypeError("createReferloopMobile: `key` (the project's pk_ key) is required");
  const base = /^https?:\/\/[^/?#]+/.exec(options.apiBaseUrl?.trim() ?? "")?.[0];
  if (!base) throw new TypeError("createReferloopMobile: `apiBaseUrl` must be the Referloop app's http(s) origin");
  const fetchImpl = options.fetch ?? globalThis.fetch?.bind(globalThis);
  if (typeof fetchImpl !== "function") throw new TypeError("createReferloopMobile: no fetch in this runtime; pass `fetch`");
  const { storage, device } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;

  let user: AppUser | null = null;
  let lastIdentity: Pick<IdentifyInput, "userId" | "userHash"> | null = null;
  /** A referral link that opened the app (cold start) or was handled, not yet received by the service. */
  let pendingLink: string | null = null;
  let started: Promise<void> | null = null;

  // Storage failures must not break attribution or sign-in: a read that fails is "nothing stored".
  const read = async (name: string) => {
    try {
      return await storage.getItem(name);
    } catch {
      return null;
    }
  };
  const write = async (name: string, value: string) => {
    try {
      await storage.setItem(name, value);
    } catch {
      // kept in memory for this session only
    }
  };
  const attempt = async <T>(fn: (() => Promise<T>) | undefined): Promise<T | null> => {
    if (!fn) return null;
    try {
      return (await fn()) ?? null;
    } catch {
      return null;
    }
  };

  async function readFirstLaunch(): Promise<FirstLaunch | null> {
    const stored = await read(STORAGE_KEYS.firstLaunch);
    if (!stored) return null;
    try {
      return JSON.parse(stored) as FirstLaunch;
    } catch {
      return null;
    }
  }

  function start(): Promise<void> {
    started ??= (async () => {
      const initial = await attempt(device.getInitialLink?.bind(device));
      if (initial && parseReferralLink(initial)) pendingLink = initial;
      if (await readFirstLaunch()) return;
      const referrer = await attempt(device.getInstallReferrer?.bind(device));
      const clipboard = await attempt(device.readClipboard?.bind(device));
      const text = clipboard?.trim() ?? "";
      const firstLaunch: FirstLaunch = {
        // Only what can name a referral is kept; an organic install's referrer says nothing.
        installReferrer: referrer && /referralCode|clickId/.test(decodeSafe(referrer)) ? referrer.slice(0, MAX_SIGNAL) : null,
        // Never anything else the user copied: only our own token leaves the device.
        clipboardToken: text.startsWith(CLIPBOARD_PREFIX) ? text.slice(CLIPBOARD_PREFIX.length).trim().slice(0, MAX_SIGNAL) || null : null,
        delivered: false,
      };
      await write(STORAGE_KEYS.firstLaunch, JSON.stringify(firstLaunch));
    })();
    return started;
  }

  async function deviceBody() {
    const info = await attempt<DeviceInfo>(async () => device.getInfo());
    if (!info) return undefined;
    const os = /^i(pad)?os$/i.test(info.os) ? "iOS" : /^android$/i.test(info.os) ? "Android" : info.os;
    const [screenWidth, screenHeight] = [info.screenWidth, info.screenHeight].sort((a, b) => a - b);
    return {
      os,
      osVersion: String(info.osVersion),
      screenWidth,
      screenHeight,
      ...(info.pixelRatio ? { pixelRatio: info.pixelRatio } : {}),
      timezone: info.timezone,
      locale: info.locale,
    };
  }

  async function identify(input: IdentifyInput): Promise<IdentifyResult> {
    const userId = typeof input?.userId === "string" ? input.userId : "";
    if (userId.length < 1 || userId.length > 255) {
      return { ok: false, error: new ReferloopError("invalid_input", "identify: userId must be 1 to 255 characters") };
    }
    await start();
    const [trackingId, code, firstLaunch, deviceInfo] = await Promise.all([
      read(STORAGE_KEYS.trackedReferral),
      read(STORAGE_KEYS.referralCode),
      readFirstLaunch(),
      deviceBody(),
    ]);
    const unsent = firstLaunch && !firstLaunch.delivered ? firstLaunch : null;
    const link = pendingLink;
    const body = {
      userId,
      ...(input.userHash ? { userHash: input.userHash } : {}),
      ...(input.attributes ? { attributes: input.attributes } : {}),
      ...(trackingId ? { referralTrackingId: trackingId } : code ? { referralCode: code } : {}),
      ...(unsent?.installReferrer ? { installReferrer: unsent.installReferrer } : {}),
      ...(unsent?.clipboardToken ? { clipboardToken: unsent.clipboardToken } : {}),
      ...(link ? { deepLink: link } : {}),
      ...(deviceInfo ? { device: deviceInfo } : {}),
    };
    const answer = await postJson(fetchImpl!, `${base}/api/v1/sdk/init-app-user`, key!, body, timeoutMs);
    if (!answer.ok) return answer;
    const parsed = readAppUser(answer.body);
    if (!parsed) return { ok: false, error: new ReferloopError("invalid_response", "init-app-user answered an unexpected body.") };

    user = parsed;
    lastIdentity = { userId, userHash: input.userHash };
    if (pendingLink === link) pendingLink = null;
    if (parsed.referralTrackingId) await write(STORAGE_KEYS.trackedReferral, parsed.referralTrackingId);
    if (unsent) await write(STORAGE_KEYS.firstLaunch, JSON.stringify({ ...unsent, delivered: true }));
    return { ok: true, user: parsed };
  }

  async function handleLink(url: string): Promise<HandleLinkResult> {
    const referral = parseReferralLink(url);
    if (!referral) return { handled: false };
    pendingLink = url;
    if (referral.referralCode) await write(STORAGE_KEYS.referralCode, referral.referralCode);
    if (referral.referralTrackingId) await write(STORAGE_KEYS.trackedReferral, referral.referralTrackingId);
    return { handled: true, referral, identify: lastIdentity ? await identify(lastIdentity) : null };
  }

  async function getReferralSummary(options: { page?: number; pageSize?: number } = {}): Promise<ReferralSummaryResult> {
    if (!lastIdentity?.userHash) {
      return { ok: false, error: new ReferloopError("invalid_input", "getReferralSummary: call identify() with the user's userHash first") };
    }
    const body = { userId: lastIdentity.userId, userHash: lastIdentity.userHash, ...(options.page ? { page: options.page } : {}), ...(options.pageSize ? { pageSize: options.pageSize } : {}) };
    const answer = await postJson(fetchImpl!, `${base}/api/v1/sdk/referral-summary`, key!, body, timeoutMs);
    if (!answer.ok) return answer;
    const summary = answer.body as ReferralSummary | null;
    if (typeof summary !== "object" || summary === null || !isString(summary.referralCode) || typeof summary.campaign !== "object") {
      return { ok: false, error: new ReferloopError("invalid_response", "referral-summary answered an unexpected body.") };
    }
    return { ok: true, summary };
  }

  return {
    start,
    identify,
    getReferralSummary,
    handleLink,
    getReferralLink: () => user?.referralLink ?? null,
    getReferralCode: () => user?.referralCode ?? null,
    getAttribution: () => user?.attribution ?? null,
    getUser: () => user,
    getTrackedReferral: () => read(STORAGE_KEYS.trackedReferral),
  };
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const isString = (value: unknown): value is string => typeof value === "string";

/** The contract's init-app-user answer, or null when the body is not one. */
function readAppUser(body: unknown): AppUser | null {
  if (typeof body !== "object" || body === null) return null;
  const b = body as Record<string, unknown>;
  if (!isString(b.id) || !isString(b.referralCode) || !(b.referralLink === null || isString(b.referralLink))) return null;
  const attribution = b.attribution as Record<string, unknown> | undefined;
  const method = Object.prototype.hasOwnProperty.call(METHODS, String(attribution?.method)) ? (attribution!.method as AttributionMethod) : "none";
  const confidence = typeof attribution?.confidence === "number" ? Math.min(1, Math.max(0, attribution.confidence)) : 0;
  return {
    id: b.id,
    uniqueId: isString(b.uniqueId) ? b.uniqueId : b.id,
    clientProvidedId: isString(b.clientProvidedId) ? b.clientProvidedId : "",
    referralCode: b.referralCode,
    referralLink: b.referralLink,
    referrerExperience: typeof b.referrerExperience === "object" && b.referrerExperience !== null ? (b.referrerExperience as ReferrerExperience) : null,
    referralTrackingId: isString(b.referralTrackingId) ? b.referralTrackingId : null,
    attribution: { method, confidence },
  };
}
