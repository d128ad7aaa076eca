export type LinkReferral = { referralCode: string; rewardEventName: string | null } | { referralTrackingId: string };

const MAX_VALUE = 255;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The referral in a link that opened the app after install (init-app-user's `deepLink`): a universal
 * or app link, or a custom-scheme URL, carrying `referralTrackingId`, or `referralCode` (and maybe
 * `rewardEventName`) in its query; or this service's own landing page `/r/{projectId}/{code}` for the
 * project at hand. A tracking id names the very referral, so it wins over a code. null otherwise.
 */
export function parseDeepLink(link: string | null | undefined, projectId: string): LinkReferral | null {
  if (!link || !URL.canParse(link)) return null;
  const url = new URL(link);
  const value = (name: string) => {
    const v = url.searchParams.get(name)?.trim();
    return v && v.length <= MAX_VALUE ? v : null;
  };
  const trackingId = value("referralTrackingId");
  if (trackingId && UUID.test(trackingId)) return { referralTrackingId: trackingId.toLowerCase() };
  const landing = /^\/r\/([^/]+)\/([A-Za-z0-9]{1,32})\/?$/.exec(url.pathname);
  const code = value("referralCode") ?? (landing && decodeURIComponent(landing[1]!) === projectId ? landing[2]! : null);
  return code ? { referralCode: code, rewardEventName: value("rewardEventName") } : null;
}
