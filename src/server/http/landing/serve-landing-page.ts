import { randomBytes, randomUUID } from "node:crypto";
import type { Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import type { RateLimiter } from "@/server/rate-limit/rate-limiter";
import { issueClipboardToken } from "@/server/domain/attribution/clipboard-token";
import { clipboardSecrets } from "@/server/domain/attribution/clipboard-secret";
import { findLandingReferral } from "@/server/domain/attribution/find-landing-referral";
import { parseUserAgent } from "@/server/domain/attribution/parse-user-agent";
import { escapeHtml, landingPageCsp, renderLandingPage } from "@/server/http/landing/render-landing-page";
import { appendReferral, landingPagePath } from "@/server/domain/referrals/build-referral-link";
import { readLandingParams } from "./landing-params";

export type LandingServices = { db: Db; config: Config; limiter: RateLimiter };

const newNonce = () => randomBytes(16).toString("base64");

/** Every landing response: rendered per visit (its click id), never framed, never indexed. */
function html(body: string, status: number, nonce: string): Response {
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": landingPageCsp(nonce),
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-robots-tag": "noindex",
    },
  });
}

/**
 * `GET /r/{projectId}/{code}[?rewardEventName=...]`: a Mobile project's hosted referral landing page
 * (render-landing-page.ts). One database read; the click itself is recorded by the page's script
 * (`POST .../click`), so link-preview fetchers that run no script record nothing.
 */
export async function serveLandingPage(request: Pick<Request, "url" | "headers">, services: LandingServices, path: { projectId: string; code: string }, now = new Date()): Promise<Response> {
  const params = readLandingParams(path, new URL(request.url));
  const referral = params && (await findLandingReferral(services.db, params.projectId, params.referralCode));
  if (!params || !referral) return notFoundPage();

  const clickId = randomUUID();
  const { platform } = parseUserAgent(request.headers.get("user-agent"));
  const { referralCode, rewardEventName } = params;
  const nonce = newNonce();
  const page = renderLandingPage({
    pagePath: landingPagePath(referral.projectId, referralCode),
    app: { name: referral.appName, iconUrl: referral.iconUrl, appStoreUrl: referral.appStoreUrl, playStoreUrl: referral.playStoreUrl },
    referralCode,
    rewardEventName,
    clickId,
    webUrl: referral.referralRedirectLink && appendReferral(referral.referralRedirectLink, referralCode, rewardEventName),
    platform,
    // Android carries the referral in the Play Store's install referrer; iPhones and iPads (which may
    // say they are Macs) get the "copy the code" fallback.
    clipboardToken:
      platform === "android" ? null : issueClipboardToken({ projectId: referral.projectId, clickId, referralCode, rewardEventName }, clipboardSecrets(services.config).current, now),
    nonce,
  });
  return html(page, 200, nonce);
}

/** Unknown project, unknown code, Web project or malformed link: one page for all, saying only that. */
export function notFoundPage(): Response {
  const nonce = newNonce();
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Invite link not found</title>
<style nonce="${escapeHtml(nonce)}">:root{color-scheme:light dark;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:Canvas;color:CanvasText}main{max-width:22rem;padding:2rem 1.5rem;text-align:center}h1{font-size:1.4rem}p{opacity:.8}</style>
</head>
<body>
<main>
<h1>This invite link does not work</h1>
<p>It may have been mistyped or is no longer valid. Ask the friend who sent it for a new link.</p>
</main>
</body>
</html>
`;
  return html(body, 404, nonce);
}
