import { describe, expect, it } from "vitest";
import { CLIPBOARD_PREFIX, issueClipboardToken, readClipboardToken } from "@/server/domain/attribution/clipboard-token";
import { parseInstallReferrer, playStoreUrlWithReferrer } from "@/server/domain/attribution/install-referrer";
import { escapeHtml, httpUrl, landingClickPath, landingPageCsp, renderLandingPage, scriptJson, type LandingPageInput } from "./render-landing-page";

const NONCE = "cmFuZG9tLW5vbmNlLTEyMzQ1Ng==";
const PAGE: LandingPageInput = {
  pagePath: "/r/AbC123",
  app: {
    name: "Acme Notes",
    iconUrl: "https://cdn.example.com/icon.png",
    appStoreUrl: "https://apps.apple.com/app/id123456789",
    playStoreUrl: "https://play.google.com/store/apps/details?id=com.acme.notes",
  },
  referralCode: "AbC123",
  rewardEventName: null,
  clickId: "0b6c1b0e-8f7a-4d39-9d57-5c1f2c3f4a5b",
  webUrl: "https://acme.example/join?referralCode=AbC123",
  platform: "ios",
  clipboardToken: null,
  nonce: NONCE,
};

/** The config object the page hands its script. */
function scriptConfig(html: string) {
  const json = /\}\)\((\{.*\})\);<\/script>/s.exec(html)?.[1];
  if (!json) throw new Error("no script config");
  return JSON.parse(json) as { destinations: Record<string, string | null>; clipboardText: string | null; clickUrl: string; platform: string };
}

describe("playStoreUrlWithReferrer / parseInstallReferrer", () => {
  it("carries the referral in Play's referrer parameter, URL-encoded once more", () => {
    const url = playStoreUrlWithReferrer("https://play.google.com/store/apps/details?id=com.acme.notes", {
      referralCode: "AbC123",
      rewardEventName: "first order & more",
      clickId: "0b6c1b0e-8f7a-4d39-9d57-5c1f2c3f4a5b",
    });
    expect(url).toBe(
      "https://play.google.com/store/apps/details?id=com.acme.notes&referrer=referralCode%3DAbC123%26rewardEventName%3Dfirst%2520order%2520%2526%2520more%26clickId%3D0b6c1b0e-8f7a-4d39-9d57-5c1f2c3f4a5b",
    );
    // What the Install Referrer API hands the app: the parameter's value, decoded once.
    const referrer = new URL(url).searchParams.get("referrer")!;
    expect(parseInstallReferrer(referrer)).toEqual({
      referralCode: "AbC123",
      rewardEventName: "first order & more",
      clickId: "0b6c1b0e-8f7a-4d39-9d57-5c1f2c3f4a5b",
    });
  });

  it("replaces a referrer the store URL already had, keeps its other parameters", () => {
    const url = playStoreUrlWithReferrer("https://play.google.com/store/apps/details?id=com.acme&referrer=old&hl=de", {
      referralCode: "AbC123",
      rewardEventName: null,
      clickId: null,
    });
    expect(url).toBe("https://play.google.com/store/apps/details?id=com.acme&hl=de&referrer=referralCode%3DAbC123");
  });

  it("reads referrers with other parameters, still encoded, or without a referral", () => {
    expect(parseInstallReferrer("utm_source=google-play&utm_medium=organic")).toEqual({ referralCode: null, rewardEventName: null, clickId: null });
    expect(parseInstallReferrer("utm_source=x&referralCode=AbC123").referralCode).toBe("AbC123");
    expect(parseInstallReferrer("referralCode%3DAbC123%26rewardEventName%3Dpurchase")).toMatchObject({ referralCode: "AbC123", rewardEventName: "purchase" });
    expect(parseInstallReferrer("referralCode=%E0%A4%A")).toMatchObject({ referralCode: null });
    expect(parseInstallReferrer("referralCode=" + "x".repeat(300)).referralCode).toBeNull();
    expect(parseInstallReferrer(null).referralCode).toBeNull();
  });
});

describe("clipboard token", () => {
  const secret = "test-secret-0123456789";
  const now = new Date("2026-11-02T12:00:00Z");
  const referral = { projectId: "5b1c4a9e-0000-4000-8000-000000000001", clickId: PAGE.clickId, referralCode: "AbC123", rewardEventName: "purchase" };

  it("round-trips with or without the prefix", () => {
    const token = issueClipboardToken(referral, secret, now);
    const later = new Date(now.getTime() + 60 * 60_000);
    expect(readClipboardToken(token, secret, later, 24 * 3600_000)).toEqual({ ...referral, issuedAt: now });
    expect(readClipboardToken(`${CLIPBOARD_PREFIX}${token}`, secret, later, 24 * 3600_000)).toMatchObject(referral);
  });

  it("refuses foreign text, another secret, a changed payload, and old tokens", () => {
    const token = issueClipboardToken(referral, secret, now);
    expect(readClipboardToken("https://example.com/some/copied/link", secret, now, 3600_000)).toBeNull();
    expect(readClipboardToken(token, "another-secret", now, 3600_000)).toBeNull();
    const [payload, signature] = token.split(".") as [string, string];
    const forged = Buffer.from(Buffer.from(payload, "base64url").toString().replace("AbC123", "ZzZ999")).toString("base64url");
    expect(readClipboardToken(`${forged}.${signature}`, secret, now, 3600_000)).toBeNull();
    expect(readClipboardToken(token, secret, new Date(now.getTime() + 3600_001), 3600_000)).toBeNull();
  });
});

describe("renderLandingPage", () => {
  it("puts the nonce on its only script and style, and has no inline handlers or style attributes", () => {
    const html = renderLandingPage(PAGE);
    expect(html.match(/<script\b[^>]*>/g)).toEqual([`<script nonce="${NONCE}">`]);
    expect(html.match(/<style\b[^>]*>/g)).toEqual([`<style nonce="${NONCE}">`]);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/\sstyle\s*=/i);
  });

  it("chooses destinations by platform: App Store, Play Store with the referral, none for a computer", () => {
    const config = scriptConfig(renderLandingPage(PAGE));
    expect(config.destinations.ios).toBe(PAGE.app.appStoreUrl);
    expect(config.destinations.android).toMatch(/^https:\/\/play\.google\.com\/store\/apps\/details\?id=com\.acme\.notes&referrer=referralCode%3DAbC123%26clickId%3D/);
    expect(config.destinations.desktop).toBeNull();
    expect(config.clickUrl).toBe("/r/AbC123/click");
    expect(scriptConfig(renderLandingPage({ ...PAGE, rewardEventName: "first order" })).clickUrl).toBe("/r/AbC123/click?rewardEventName=first%20order");
    expect(landingClickPath("/r/p-1/AbC123/")).toBe("/r/p-1/AbC123/click");
    expect(() => landingClickPath("https://evil.example/r")).toThrow();
    expect(() => landingClickPath("//evil.example/r")).toThrow();
  });

  it("never follows the redirect link by itself: an interstitial names its host and address, a click goes there", () => {
    for (const platform of ["desktop", "ios", "android"] as const) {
      const html = renderLandingPage({ ...PAGE, platform, app: { ...PAGE.app, appStoreUrl: null, playStoreUrl: null } });
      expect(scriptConfig(html).destinations).toEqual({ ios: null, android: null, desktop: null });
      expect(html).not.toContain('http-equiv="refresh"');
      expect(html).toContain('<p id="status">Acme Notes continues on acme.example:</p>');
      expect(html).toContain('<a href="https://acme.example/join?referralCode=AbC123" rel="noreferrer">Continue to acme.example</a>');
      expect(html).toContain('<small class="destination">https://acme.example/join?referralCode=AbC123</small>');
    }
    // A host that looks like another's is named as it is (IDN in its ASCII form).
    expect(renderLandingPage({ ...PAGE, webUrl: "https://аpple.com/x" })).toContain("Continue to xn--pple-43d.com</a>");
    const html = renderLandingPage({ ...PAGE, platform: "desktop", webUrl: null });
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).toContain("Get Acme Notes on your phone:");
    expect(html).toContain('<a href="https://apps.apple.com/app/id123456789">Download on the App Store</a>');
  });

  it("without scripts: refreshes to the platform's store and shows every link", () => {
    const html = renderLandingPage({ ...PAGE, platform: "android" });
    const play = scriptConfig(html).destinations.android!;
    expect(html).toContain(`<noscript><meta http-equiv="refresh" content="0; url=${escapeHtml(play)}"></noscript>`);
    expect(html).toContain(`<a href="${escapeHtml(play)}">Get it on Google Play</a>`);
    expect(html).toContain('<a href="https://acme.example/join?referralCode=AbC123" rel="noreferrer">Continue to acme.example</a>');
    expect(renderLandingPage({ ...PAGE, platform: "desktop" })).not.toContain('http-equiv="refresh"');
  });

  it("offers copy-the-code only with a token and an App Store", () => {
    expect(renderLandingPage(PAGE)).not.toContain('id="copy"');
    const withToken = renderLandingPage({ ...PAGE, clipboardToken: "tok.en" });
    expect(withToken).toContain('<button id="copy" type="button" hidden>');
    expect(scriptConfig(withToken).clipboardText).toBe("referloop:tok.en");
    const noAppStore = renderLandingPage({ ...PAGE, clipboardToken: "tok.en", app: { ...PAGE.app, appStoreUrl: null } });
    expect(noAppStore).not.toContain('id="copy"');
  });

  describe("escapes hostile values", () => {
    const hostileName = `</script><script>alert(1)</script><img src=x onerror="alert(2)">'"&\u2028x`;
    const html = renderLandingPage({
      ...PAGE,
      app: {
        name: hostileName,
        iconUrl: 'https://cdn.example.com/i.png"><script>alert(3)</script>',
        appStoreUrl: "javascript:alert(4)",
        playStoreUrl: "https://play.google.com/store/apps/details?id=x&q=</script><script>alert(5)</script>",
      },
      webUrl: "data:text/html,<script>alert(6)</script>",
      referralCode: "</script>",
      pagePath: "/r/%3C%2Fscript%3E",
    });

    it("in HTML text and attributes", () => {
      expect(html).toContain(`<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt;&#39;&quot;&amp;\u2028x</title>`);
      expect(html).toContain('content="&lt;/script&gt;&lt;script&gt;alert(1)');
      expect(html.match(/<script\b/g)).toHaveLength(1);
      expect(html).not.toMatch(/<img src=x/);
    });

    it("in URLs: only http(s) is written, normalised", () => {
      expect(html).not.toContain("javascript:");
      expect(html).not.toContain("data:text/html");
      expect(html).toContain('src="https://cdn.example.com/i.png%22%3E%3Cscript%3Ealert(3)%3C/script%3E"');
      expect(httpUrl(" https://example.com/a b")).toBe("https://example.com/a%20b");
      expect(httpUrl("//evil.example")).toBeNull();
      expect(httpUrl("ftp://example.com")).toBeNull();
    });

    it("in the script's JSON", () => {
      const body = /<script nonce="[^"]+">([\s\S]*)<\/script>/.exec(html)![1]!;
      expect(body).not.toMatch(/<\/script|<!--|<script/i);
      expect(body).not.toContain("\u2028");
      const config = scriptConfig(html);
      expect(config.destinations.ios).toBeNull();
      expect(config.clickUrl).toBe("/r/%3C%2Fscript%3E/click");
      expect(scriptJson({ a: "</script>\u2029&" })).toBe('{"a":"\\u003c/script\\u003e\\u2029\\u0026"}');
    });
  });

  it("refuses a nonce that could break out of its attribute", () => {
    expect(() => renderLandingPage({ ...PAGE, nonce: 'abc" onload="x' })).toThrow(/nonce/);
    expect(() => landingPageCsp("short")).toThrow(/nonce/);
    expect(landingPageCsp(NONCE)).toBe(
      `default-src 'none'; script-src 'nonce-${NONCE}'; style-src 'nonce-${NONCE}'; img-src 'self' https: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
  });
});
