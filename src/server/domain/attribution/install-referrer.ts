/**
 * Android's deterministic path. Google Play keeps the `referrer` parameter of the store link it was
 * opened with and hands it to the app through the Install Referrer API after install, so a Play
 * Store link carrying the referral is attributed with certainty. The value is itself a URL-encoded
 * query string (Play's convention, like `utm_source=...`):
 *
 *     https://play.google.com/store/apps/details?id=com.example&referrer=referralCode%3DAbC123%26clickId%3D...
 *
 * The app reads back `referralCode=AbC123&clickId=...` and sends it as init-app-user's
 * `installReferrer`; `parseInstallReferrer` reads it there. `clickId` names the landing page's click,
 * so the server can mark it matched and the fingerprint never hands it to someone else.
 */
export type InstallReferral = { referralCode: string; rewardEventName: string | null; clickId: string | null };

const enc = encodeURIComponent;

export function playStoreUrlWithReferrer(playStoreUrl: string, referral: InstallReferral): string {
  const url = new URL(playStoreUrl);
  const inner = [
    `referralCode=${enc(referral.referralCode)}`,
    ...(referral.rewardEventName === null ? [] : [`rewardEventName=${enc(referral.rewardEventName)}`]),
    ...(referral.clickId === null ? [] : [`clickId=${enc(referral.clickId)}`]),
  ].join("&");
  const kept = url.search
    .slice(1)
    .split("&")
    .filter((pair) => pair && !/^referrer(=|$)/.test(pair));
  url.search = [...kept, `referrer=${enc(inner)}`].join("&");
  return url.toString();
}

const MAX_VALUE = 255;

function decode(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/**
 * The referral in an Install Referrer string, or nulls. Accepts the string as the API returns it,
 * and the same string encoded once more (some wrappers return it still encoded). Other parameters
 * (utm_*) are ignored.
 */
export function parseInstallReferrer(referrer: string | null | undefined): { referralCode: string | null; rewardEventName: string | null; clickId: string | null } {
  let text = (referrer ?? "").trim();
  if (!text.includes("=") && /%3D/i.test(text)) text = decode(text) ?? "";
  const values = new Map<string, string>();
  for (const pair of text.split("&")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const value = decode(pair.slice(at + 1));
    if (value !== null && value.length > 0 && value.length <= MAX_VALUE && !values.has(pair.slice(0, at))) values.set(pair.slice(0, at), value);
  }
  return {
    referralCode: values.get("referralCode") ?? null,
    rewardEventName: values.get("rewardEventName") ?? null,
    clickId: values.get("clickId") ?? null,
  };
}
