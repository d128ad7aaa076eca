import { z } from "zod";
import { jsonNumber } from "./common";

/**
 * The two inputs of a fingerprint, as the API receives them. Every field but the OS may be missing or
 * null (a browser or device may not know it; the matcher treats unknown as no evidence). A refused
 * click body costs only that click's fingerprint: the page has already sent the visitor on.
 */

// jsonNumber: strict JSON numbers in API bodies (common.ts says why).
const side = jsonNumber(z.number().positive().max(10_000));
const pixelRatio = jsonNumber(z.number().min(0.25).max(10));
const timezone = z.string().trim().max(64);
const locale = z.string().trim().max(35);

/** `device` of init-app-user (SDK-CONTRACT.md): screen in points/dp. */
export const deviceSchema = z.object({
  os: z.string().trim().min(1).max(32),
  osVersion: z.string().trim().max(32).nullish(),
  screenWidth: side.nullish(),
  screenHeight: side.nullish(),
  pixelRatio: pixelRatio.nullish(),
  timezone: timezone.nullish(),
  locale: locale.nullish(),
});
export type DeviceInput = z.infer<typeof deviceSchema>;

/**
 * Body of `POST /r/{projectId}/{code}/click`, sent by the landing page's script (sendBeacon, text/plain JSON).
 * `clickId` is the id the page was rendered with, so the click row and the page's clipboard token
 * and Play Store referrer name the same click.
 */
export const clickPayloadSchema = z.object({
  clickId: z.uuid(),
  screenWidth: side.nullish(),
  screenHeight: side.nullish(),
  pixelRatio: pixelRatio.nullish(),
  timezone: timezone.nullish(),
  locale: locale.nullish(),
  /** navigator.maxTouchPoints: tells an iPad in desktop mode from a Mac. */
  maxTouchPoints: jsonNumber(z.number().int().min(0).max(256)).nullish(),
  /** Chromium's userAgentData platformVersion: the real Android version. */
  platformVersion: z.string().trim().max(32).nullish(),
});
export type ClickPayload = z.infer<typeof clickPayloadSchema>;

export const MAX_SIGNAL_LENGTH = 2048;
const signal = z.string().trim().max(MAX_SIGNAL_LENGTH);

/**
 * The mobile fields of init-app-user's body (SDK-CONTRACT.md), for its body schema to spread:
 * what the app found on its first launch, and the device for the fingerprint fallback. Each is
 * read by resolveInstallAttribution; a value that names nothing is simply not a signal.
 */
export const installSignalFields = {
  installReferrer: signal.nullish().describe("The Google Play Install Referrer string, as the app read it."),
  clipboardToken: signal.nullish().describe("The landing page's clipboard token: `referloop:<token>` or the bare token."),
  deepLink: signal.nullish().describe("A universal/app link that opened the app after install."),
  device: deviceSchema.nullish().describe("The device, for the fingerprint fallback: screen in points/dp."),
};
