import { z } from "zod";
import { localeSchema as locale, pixelRatioSchema as pixelRatio, screenSideSchema as side, timezoneSchema as timezone } from "@/lib/schemas/sdk";

export { deviceSchema, type DeviceInput } from "@/lib/schemas/sdk";

/*
 * The two inputs of a fingerprint, as the API receives them: init-app-user's `device` (its home is
 * the SDK's schemas) and the landing page's click, from the same field schemas. A refused click body
 * costs only that click's fingerprint: the page has already sent the visitor on.
 */

/**
 * Body of `POST /r/{code}/click`, sent by the landing page's script (sendBeacon, text/plain JSON).
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
  maxTouchPoints: z.number().int().min(0).max(256).nullish(),
  /** Chromium's userAgentData platformVersion: the real Android version. */
  platformVersion: z.string().trim().max(32).nullish(),
});
export type ClickPayload = z.infer<typeof clickPayloadSchema>;
