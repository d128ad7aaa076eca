import { describe, expect, it } from "vitest";
import { COOKIE_DAYS, cookieString } from "./cookies.ts";

describe("attribution cookie attributes", () => {
  it("30 days on the whole site, SameSite=Lax, host-only and not Secure on http", () => {
    expect(cookieString("svc_ref_code", "AbC123", { days: COOKIE_DAYS, secure: false })).toBe(
      "svc_ref_code=AbC123; Max-Age=2592000; Path=/; SameSite=Lax",
    );
  });

  it("Secure on https and the configured cookie domain", () => {
    expect(cookieString("svc_tracked_referral", "5f0c", { days: 30, secure: true, domain: "example.com" })).toBe(
      "svc_tracked_referral=5f0c; Max-Age=2592000; Path=/; SameSite=Lax; Secure; Domain=example.com",
    );
  });

  it("deletes with the same attributes, and encodes what it stores", () => {
    expect(cookieString("svc_ref_code", "a;b c", { days: 0, secure: false })).toBe("svc_ref_code=a%3Bb%20c; Max-Age=0; Path=/; SameSite=Lax");
  });
});
