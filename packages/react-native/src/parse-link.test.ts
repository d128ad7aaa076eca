import { describe, expect, it } from "vitest";
import { parseReferralLink } from "./parse-link.ts";

describe("parseReferralLink", () => {
  it.each([
    ["https://acme.example/join?referralCode=AbC123", { referralCode: "AbC123", rewardEventName: null, referralTrackingId: null }],
    ["acme://join?referralCode=AbC123&rewardEventName=first+order", { referralCode: "AbC123", rewardEventName: "first order", referralTrackingId: null }],
    ["https://acme.example/?rewardEventName=a%26b&referralCode=AbC123#top", { referralCode: "AbC123", rewardEventName: "a&b", referralTrackingId: null }],
    ["https://acme.example/t?referralTrackingId=0b6c1b0e-8f7a", { referralCode: null, rewardEventName: null, referralTrackingId: "0b6c1b0e-8f7a" }],
    // The hosted landing page's link, opened as a universal link.
    ["https://go.referloop.example/r/7f1c2d30-aaaa-bbbb/AbC123?rewardEventName=purchase", { referralCode: "AbC123", rewardEventName: "purchase", referralTrackingId: null }],
    ["https://go.referloop.example/r/7f1c2d30-aaaa-bbbb/AbC123", { referralCode: "AbC123", rewardEventName: null, referralTrackingId: null }],
  ])("%s", (url, expected) => expect(parseReferralLink(url)).toEqual(expected));

  it.each([null, "", "acme://settings", "https://acme.example/reset?token=abc", "https://acme.example/#referralCode=AbC123", "https://x/?referralCode=%E0%A4%A", "https://x/r/only-a-project"])(
    "finds no referral in %j",
    (url) => expect(parseReferralLink(url)).toBeNull(),
  );
});
