/*
 * The SDK HTTP contract as the widget sees it: the answers' types are generated from the OpenAPI
 * document (api-types.ts, `npm run sdk:types`), so the package needs nothing from the server.
 */
import type { ReferralSummary, SdkAppUser, SdkNewUserExperience, SdkTrackReferralResponse } from "./api-types.ts";

export type { ReferralSummary };

export type ReferrerExperience = SdkAppUser["referrerExperience"];
export type TrackReferralResponse = SdkTrackReferralResponse;
export type NewUserExperienceResponse = SdkNewUserExperience;
/** What the banner draws (the campaign section also names the referrer's name attribute, which stays on the server). */
export type NewUserExperience = NewUserExperienceResponse["newUserExperience"];
export type InitAppUserResponse = SdkAppUser;

export type InitOptions = {
  /** The project's publishable key, `pk_...`. */
  key: string;
  /** The Referloop app's origin; defaults to the origin the script was loaded from. */
  apiBaseUrl?: string;
  /** Set the attribution cookies on this domain (e.g. `example.com`) to share them across subdomains. */
  cookieDomain?: string;
};

export type IdentifyOptions = {
  /** Your own id of the signed-in user. */
  userId: string;
  /** Hex HMAC-SHA256 of userId keyed with the project secret, computed by your backend. */
  userHash?: string;
  /** Replaces the stored attributes, e.g. `{ name: "Ada" }` (shown to the people this user invites). */
  attributes?: Record<string, string>;
};

export type ShareChannel = "copy" | "x" | "facebook" | "linkedin" | "whatsapp" | "telegram" | "email" | "native";

export type ReferloopEvents = {
  /** The identified user's referral data is loaded: getReferralLink() answers from now on. */
  ready: { referralCode: string; referralLink: string | null };
  /** A referral link arrival was recorded (once per code). */
  referral_tracked: { referralCode: string; referralTrackingId: string };
  open: undefined;
  share: { channel: ShareChannel };
  close: undefined;
};

export type ReferloopEvent = keyof ReferloopEvents;
