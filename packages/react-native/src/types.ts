import type { ReferralSummary, ReferredFriend, SdkAppUser, SdkAttribution } from "./api-types.ts";

/** The referrer's own summary (getReferralSummary), as the server's document describes it. */
export type { ReferralSummary, ReferredFriend };

/** The app's key-value storage (React Native: AsyncStorage fits as is). */
export type StorageAdapter = {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem?(key: string): Promise<void>;
};

/** What the device says about itself; screen in points (iOS) or dp (Android). */
export type DeviceInfo = {
  /** "iOS" or "Android" (React Native's Platform.OS "ios"/"android" is accepted). */
  os: string;
  osVersion: string;
  screenWidth: number;
  screenHeight: number;
  pixelRatio?: number;
  /** IANA name, e.g. Intl.DateTimeFormat().resolvedOptions().timeZone. */
  timezone: string;
  /** BCP 47, e.g. "de-DE". */
  locale: string;
};

/** The app's view of the device and of how it was installed and opened. Only getInfo is required. */
export type DeviceAdapter = {
  getInfo(): DeviceInfo | Promise<DeviceInfo>;
  /** Android: the Google Play Install Referrer string (read on the first launch only). */
  getInstallReferrer?(): Promise<string | null>;
  /** iOS: the clipboard's text (read on the first launch only; only a `referloop:` token is ever sent). */
  readClipboard?(): Promise<string | null>;
  /** The URL that launched the app, if a link did (React Native: Linking.getInitialURL()). */
  getInitialLink?(): Promise<string | null>;
};

export type ReferloopMobileOptions = {
  /** The project's publishable key, `pk_...`. */
  key: string;
  /** The Referloop app's origin, e.g. "https://app.referloop.example". */
  apiBaseUrl: string;
  storage: StorageAdapter;
  device: DeviceAdapter;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Per request, default 10 s. */
  timeoutMs?: number;
};

export type IdentifyInput = {
  /** Your own id of the signed-in user, 1 to 255 characters. */
  userId: string;
  /** hex HMAC-SHA256(userId) keyed with the project's secret, computed by your backend (identity verification). */
  userHash?: string;
  /** Replaces the stored attributes when given (e.g. { name: "Ada" }). */
  attributes?: Record<string, string>;
};

export type AttributionMethod = SdkAttribution["method"];
export type Attribution = Pick<SdkAttribution, "method" | "confidence">;
export type ReferrerExperience = SdkAppUser["referrerExperience"];

/**
 * init-app-user's answer (api-types.ts, generated from the server's schemas) as the client keeps it:
 * the referrer experience null and the attribution `none` when an answer lacks them.
 */
export type AppUser = Omit<SdkAppUser, "referrerExperience" | "attribution"> & { referrerExperience: ReferrerExperience | null; attribution: Attribution };

/** The referral parameters of a link. */
export type LinkReferral = { referralCode: string | null; rewardEventName: string | null; referralTrackingId: string | null };
