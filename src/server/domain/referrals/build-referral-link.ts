import type { AppType } from "@/generated/prisma/enums";

/**
 * `<redirect link>?referralCode=CODE[&rewardEventName=E]`, values percent-encoded. Built on URL so
 * that a redirect link saved before query strings were refused keeps its own parameters and fragment.
 */
export function appendReferral(redirectLink: string, referralCode: string, rewardEventName: string | null): string {
  const url = new URL(redirectLink);
  const params = [`referralCode=${encodeURIComponent(referralCode)}`];
  if (rewardEventName !== null) params.push(`rewardEventName=${encodeURIComponent(rewardEventName)}`);
  url.search = [url.search.slice(1), ...params].filter(Boolean).join("&");
  return url.toString();
}

/**
 * The path of a Mobile project's hosted referral landing page. Referral codes are unique within a
 * project only, so the path names the project too.
 */
export const landingPagePath = (projectId: string, referralCode: string) =>
  `/r/${encodeURIComponent(projectId)}/${encodeURIComponent(referralCode)}`;

export type LinkProject = { id: string; appType: AppType; referralRedirectLink: string | null };

/**
 * The link a referrer shares. Mobile projects: the hosted landing page on this app's public origin,
 * `{origin}/r/{projectId}/{code}[?rewardEventName=E]`, which records the click and sends the visitor
 * to the right store. Web projects: the redirect link with the referral appended; null when the
 * project has none.
 */
export function buildReferralLink(project: LinkProject, referralCode: string, rewardEventName: string | null, publicOrigin: string): string | null {
  if (project.appType === "Mobile") {
    const query = rewardEventName === null ? "" : `?rewardEventName=${encodeURIComponent(rewardEventName)}`;
    return `${publicOrigin}${landingPagePath(project.id, referralCode)}${query}`;
  }
  return project.referralRedirectLink ? appendReferral(project.referralRedirectLink, referralCode, rewardEventName) : null;
}
