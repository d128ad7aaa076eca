/**
 * `<redirect link>?referralCode=CODE[&rewardEventName=E]`, values percent-encoded. Built on URL so
 * that a redirect link saved before query strings were refused keeps its own parameters and fragment.
 */
export function buildReferralLink(redirectLink: string, referralCode: string, rewardEventName: string | null): string {
  const url = new URL(redirectLink);
  const params = [`referralCode=${encodeURIComponent(referralCode)}`];
  if (rewardEventName !== null) params.push(`rewardEventName=${encodeURIComponent(rewardEventName)}`);
  url.search = [url.search.slice(1), ...params].filter(Boolean).join("&");
  return url.toString();
}
