import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * iOS's deterministic path. iOS has no install referrer, so the landing page offers "copy the code":
 * the visitor's tap puts `referloop:<token>` on the clipboard before the App Store opens, and the
 * app reads it on first launch and sends it as init-app-user's `clipboardToken`.
 *
 * The token is self-contained and signed (HMAC-SHA256, truncated to 128 bits) with a server secret:
 * it names the project, the click and its referral (codes are unique per project only), so it is
 * valid even if the page's click beacon never arrived, and nobody can forge one for another referral.
 * It is one-time through its click: binding sets the click's `matchedAt` once (conditional update,
 * inserting the click when its beacon never arrived), so a second install with the same token binds
 * nothing.
 */
export const CLIPBOARD_PREFIX = "referloop:";

export type ClipboardReferral = { projectId: string; clickId: string; referralCode: string; rewardEventName: string | null };
export type ReadToken = ClipboardReferral & { issuedAt: Date };

const MAC_BYTES = 16;

const mac = (payload: string, secret: string | Buffer) => createHmac("sha256", secret).update(payload).digest().subarray(0, MAC_BYTES);

export function issueClipboardToken(referral: ClipboardReferral, secret: string | Buffer, now: Date): string {
  const payload = Buffer.from(
    JSON.stringify({ p: referral.projectId, c: referral.clickId, r: referral.referralCode, e: referral.rewardEventName, t: Math.floor(now.getTime() / 1000) }),
  ).toString("base64url");
  return `${payload}.${mac(payload, secret).toString("base64url")}`;
}

/**
 * The referral in a clipboard text (`referloop:<token>` or the bare token), or null when it is not
 * one of ours, was tampered with, or is older than `maxAgeMs`.
 */
export function readClipboardToken(text: string | null | undefined, secret: string | Buffer, now: Date, maxAgeMs: number): ReadToken | null {
  const token = (text ?? "").trim().replace(new RegExp(`^${CLIPBOARD_PREFIX}`), "");
  const match = /^([A-Za-z0-9_-]{1,2000})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  const given = Buffer.from(signature, "base64url");
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(payload, secret))) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const { p, c, r, e, t } = (claims ?? {}) as Record<string, unknown>;
  if (typeof p !== "string" || typeof c !== "string" || typeof r !== "string" || (e !== null && typeof e !== "string") || typeof t !== "number") return null;
  const issuedAt = new Date(t * 1000);
  const age = now.getTime() - issuedAt.getTime();
  if (age < -60_000 || age > maxAgeMs) return null;
  return { projectId: p, clickId: c, referralCode: r, rewardEventName: e, issuedAt };
}
