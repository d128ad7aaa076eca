import { CLIPBOARD_PREFIX } from "@/server/domain/attribution/clipboard-token";
import { playStoreUrlWithReferrer } from "@/server/domain/attribution/install-referrer";
import type { StorePlatform } from "@/server/domain/attribution/parse-user-agent";

/**
 * The hosted referral landing page of a Mobile project (`GET /r/{projectId}/{code}`): one HTML document, no
 * framework, a few hundred bytes of script. The script records the click with what only the browser
 * knows (screen, pixel ratio, timezone, locale, touch points, Chromium's real OS version) by
 * POST to the page's path + "/click" (with the page's `rewardEventName`; sendBeacon, JSON as text/plain, same
 * origin; clickPayloadSchema), then
 * sends the visitor on: App Store on iOS, Play Store (carrying the referral in its `referrer`) on
 * Android. The project's referral link (its redirect link, any host the project chose) is never
 * followed by itself: computers, and phones without a store link, see an interstitial that names its
 * host and full address, and go there only by clicking the link, so `/r/...` on our domain is no open
 * redirect. The server's guess of the platform comes from the
 * user agent; the script corrects it for iPads, which send a Mac's. On iOS with a clipboard token the
 * page waits for a tap on "Copy the invite code and open the App Store" (a clipboard write needs the
 * visitor's gesture), with a plain App Store link beside it for those who decline.
 *
 * Without scripts: a `<noscript>` refresh to the same store and visible links to every store.
 * Every interpolated value is escaped for its context (HTML text, attribute, JSON inside a script),
 * and only http(s) URLs are ever written. The inline script and style carry the request's CSP nonce;
 * there are no inline event handlers or style attributes, so `landingPageCsp` can be strict.
 */
export type LandingPageInput = {
  /**
   * The path the page is served at, e.g. "/r/{projectId}/AbC123" (without its query); the click is
   * recorded at this path + "/click", with `?rewardEventName=` when the page has one.
   */
  pagePath: string;
  app: { name: string; iconUrl: string | null; appStoreUrl: string | null; playStoreUrl: string | null };
  referralCode: string;
  rewardEventName: string | null;
  /** The id the click will be recorded under (a UUID generated for this page view). */
  clickId: string;
  /** The project's referral link (redirect link with the code), for visitors on a computer; null when none. */
  webUrl: string | null;
  /** From parseUserAgent(request's User-Agent).platform. */
  platform: StorePlatform;
  /** issueClipboardToken(...) to offer "copy the code" on iOS; null not to. */
  clipboardToken: string | null;
  /** The CSP nonce of this response (base64, at least 16 characters). */
  nonce: string;
};

/** Where the page's script records the click: the page's own path + "/click" (same origin, so `connect-src 'self'`). */
export function landingClickPath(pagePath: string): string {
  if (!/^\/(?!\/)[^\s?#\\]*$/.test(pagePath)) throw new Error(`Not a root-relative path: ${pagePath}`);
  return `${pagePath.replace(/\/+$/, "")}/click`;
}

/** The Content-Security-Policy to send with the page. */
export function landingPageCsp(nonce: string): string {
  assertNonce(nonce);
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' https: data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function assertNonce(nonce: string) {
  if (!/^[A-Za-z0-9+/_-]{16,}={0,2}$/.test(nonce)) throw new Error("A CSP nonce is base64 of at least 16 characters");
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** For HTML text and double- or single-quoted attribute values. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * JSON that is safe inside an inline <script>: no `</script>`, `<!--` or `]]>` can form, and the
 * line separators JavaScript once refused in strings are escaped.
 */
export const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** An absolute http(s) URL, normalised; null for anything else (javascript:, data:, relative, garbage). */
export function httpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Icons may also be served by this app, from a root-relative path. */
const iconUrl = (value: string | null) => (value && /^\/(?!\/)/.test(value) && !/[\s\\]/.test(value) ? value : httpUrl(value));

export function renderLandingPage(input: LandingPageInput): string {
  assertNonce(input.nonce);
  const name = input.app.name.trim() || "the app";
  const appStore = httpUrl(input.app.appStoreUrl);
  const playStoreBase = httpUrl(input.app.playStoreUrl);
  const playStore = playStoreBase
    ? playStoreUrlWithReferrer(playStoreBase, { referralCode: input.referralCode, rewardEventName: input.rewardEventName, clickId: input.clickId })
    : null;
  const web = httpUrl(input.webUrl);
  const icon = iconUrl(input.app.iconUrl);
  // Only the stores' own hosts are followed without a click (projects' store links are held to them).
  const destinations: Record<StorePlatform, string | null> = { ios: appStore, android: playStore, desktop: null };
  const primary = destinations[input.platform];
  const token = appStore ? input.clipboardToken : null;
  const webHost = web && new URL(web).host;

  const elsewhere = webHost ? `${name} continues on ${webHost}:` : `Get ${name} on your phone:`;
  const status: Record<StorePlatform, string> = {
    ios: appStore ? "Opening the App Store…" : elsewhere,
    android: playStore ? "Opening Google Play…" : elsewhere,
    desktop: elsewhere,
  };
  const config = {
    clickUrl:
      landingClickPath(input.pagePath) + (input.rewardEventName === null ? "" : `?rewardEventName=${encodeURIComponent(input.rewardEventName)}`),
    clickId: input.clickId,
    platform: input.platform,
    destinations,
    status,
    copyStatus: `Copy your invite code, then install ${name} from the App Store.`,
    clipboardText: token === null ? null : `${CLIPBOARD_PREFIX}${token}`,
  };

  const links = [
    appStore && `<li><a href="${escapeHtml(appStore)}">Download on the App Store</a></li>`,
    playStore && `<li><a href="${escapeHtml(playStore)}">Get it on Google Play</a></li>`,
    web && `<li><a href="${escapeHtml(web)}" rel="noreferrer">Continue to ${escapeHtml(webHost!)}</a><br><small class="destination">${escapeHtml(web)}</small></li>`,
  ].filter(Boolean);
  const nonce = escapeHtml(input.nonce);

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(name)}</title>
<meta property="og:title" content="${escapeHtml(name)}">
${icon && /^https?:/.test(icon) ? `<meta property="og:image" content="${escapeHtml(icon)}">\n` : ""}${primary ? `<noscript><meta http-equiv="refresh" content="0; url=${escapeHtml(primary)}"></noscript>\n` : ""}<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${icon ? `<img class="icon" src="${escapeHtml(icon)}" alt="" width="96" height="96">\n` : ""}<h1>${escapeHtml(name)}</h1>
<p id="status">${escapeHtml(status[input.platform])}</p>
${token === null ? "" : `<button id="copy" type="button" hidden>Copy the invite code and open the App Store</button>\n`}${links.length ? `<ul>\n${links.join("\n")}\n</ul>\n` : ""}</main>
<script nonce="${nonce}">${LANDING_SCRIPT}(${scriptJson(config)});</script>
</body>
</html>
`;
}

/**
 * Runs in the visitor's browser with the page's config as `c`. Kept as source text (not a compiled
 * function) so no build step can rewrite it, and written for any browser a phone may still have
 * (ES5 but for Promise, guarded). Fields of `c`: clickUrl, clickId, platform, destinations,
 * status, copyStatus, clipboardText (see renderLandingPage).
 */
const LANDING_SCRIPT = `(function (c) {
  var nav = navigator, platform = c.platform, touch = nav.maxTouchPoints || 0;
  // iPadOS asks for the desktop site with a Mac's user agent; only touch tells them apart.
  if (platform === "desktop" && /Macintosh/.test(nav.userAgent) && touch > 1) platform = "ios";
  var timezone = null;
  try { timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || null; } catch (e) {}
  var body = {
    clickId: c.clickId, screenWidth: screen.width, screenHeight: screen.height,
    pixelRatio: window.devicePixelRatio || null, timezone: timezone, locale: nav.language || null,
    maxTouchPoints: touch
  };
  var status = document.getElementById("status"), copy = document.getElementById("copy");
  var waitForTap = platform === "ios" && c.clipboardText !== null && copy !== null;
  function go(url) { if (url) window.location.replace(url); }
  function record() {
    var data = JSON.stringify(body);
    try { if (nav.sendBeacon && nav.sendBeacon(c.clickUrl, data)) return; } catch (e) {}
    try {
      fetch(c.clickUrl, { method: "POST", body: data, keepalive: true, credentials: "omit", headers: { "Content-Type": "text/plain" } });
    } catch (e) {}
  }
  function proceed() { record(); if (!waitForTap) go(c.destinations[platform]); }
  if (status) status.textContent = waitForTap ? c.copyStatus : c.status[platform];
  if (waitForTap) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      function leave() { go(c.destinations.ios); }
      try { nav.clipboard.writeText(c.clipboardText).then(leave, leave); } catch (e) { leave(); }
    });
  }
  // Chromium's real OS version (its user agent says "Android 10"), if it answers within 300 ms.
  var hints = nav.userAgentData && nav.userAgentData.getHighEntropyValues && window.Promise;
  if (!hints) return proceed();
  var done = false;
  function once() { if (!done) { done = true; proceed(); } }
  setTimeout(once, 300);
  nav.userAgentData.getHighEntropyValues(["platformVersion"]).then(function (v) {
    if (!done) body.platformVersion = v.platformVersion || null;
    once();
  }, once);
})`;

const STYLE = [
  ":root{color-scheme:light dark;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}",
  "body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:Canvas;color:CanvasText}",
  "main{max-width:22rem;padding:2rem 1.5rem;text-align:center}",
  ".icon{width:96px;height:96px;border-radius:22px;box-shadow:0 2px 10px rgba(0,0,0,.2)}",
  "h1{font-size:1.5rem;margin:1rem 0 .5rem}",
  "p{margin:0 0 1.5rem;opacity:.8}",
  "button{font:inherit;font-weight:600;padding:.8rem 1.2rem;border:0;border-radius:.75rem;background:#0a66ff;color:#fff;width:100%;margin-bottom:1rem}",
  "ul{list-style:none;padding:0;margin:0}",
  "li{margin:.5rem 0}",
  "a{color:LinkText}",
  ".destination{opacity:.7;word-break:break-all}",
].join("");
