import type { LinkReferral } from "./types.ts";

/**
 * The referral parameters of a universal link, app link or custom-scheme URL
 * (`https://acme.example/join?referralCode=AbC123&rewardEventName=purchase`, `acme://join?...`).
 * Parsed by hand: React Native's URL implementation does not support searchParams on every version.
 * null when the link carries neither a referral code nor a tracking id.
 */
export function parseReferralLink(url: string | null | undefined): LinkReferral | null {
  if (!url) return null;
  const query = url.split("#")[0]!.split("?").slice(1).join("?");
  const values = new Map<string, string>();
  for (const pair of query.split("&")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    try {
      const key = decodeURIComponent(pair.slice(0, at));
      const value = decodeURIComponent(pair.slice(at + 1).replace(/\+/g, " ")).trim();
      if (value && value.length <= 255 && !values.has(key)) values.set(key, value);
    } catch {
      // a malformed escape: ignore that parameter
    }
  }
  // The hosted landing page's own link, /r/{projectId}/{code}, opened as a universal/app link.
  const landing = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\/r\/[^/?#]+\/([A-Za-z0-9]{1,32})(?:[?#]|$)/i.exec(url);
  const referral = {
    referralCode: values.get("referralCode") ?? landing?.[1] ?? null,
    rewardEventName: values.get("rewardEventName") ?? null,
    referralTrackingId: values.get("referralTrackingId") ?? null,
  };
  return referral.referralCode || referral.referralTrackingId ? referral : null;
}
