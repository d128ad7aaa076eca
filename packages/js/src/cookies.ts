/** The attribution cookies on the client's own site (spec: "Client-side attribution storage"). */
export const REF_CODE_COOKIE = "svc_ref_code";
export const TRACKED_REFERRAL_COOKIE = "svc_tracked_referral";
/** The spec's cookie lifetime. */
export const COOKIE_DAYS = 30;

export type CookieOptions = { days: number; domain?: string; secure: boolean };

/** A Set-Cookie string for document.cookie; `days: 0` deletes the cookie. */
export const cookieString = (name: string, value: string, { days, domain, secure }: CookieOptions) =>
  `${name}=${encodeURIComponent(value)}; Max-Age=${days * 86400}; Path=/; SameSite=Lax` + (secure ? "; Secure" : "") + (domain ? `; Domain=${domain}` : "");

export function writeCookie(name: string, value: string, domain?: string, days = COOKIE_DAYS): void {
  document.cookie = cookieString(name, value, { days, domain, secure: location.protocol === "https:" });
}

export function readCookie(name: string): string | undefined {
  for (const pair of document.cookie.split("; ")) {
    const at = pair.indexOf("=");
    if (pair.slice(0, at) === name) {
      try {
        return decodeURIComponent(pair.slice(at + 1)) || undefined;
      } catch {
        return undefined;
      }
    }
  }
}
