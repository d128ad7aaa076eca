import { describe, expect, it } from "vitest";
import { appendReferral, buildReferralLink } from "@/server/domain/referrals/build-referral-link";

describe("appendReferral", () => {
  it("appends the code, and the event name when given", () => {
    expect(appendReferral("https://app.example.com/join", "aB3dE9", null)).toBe("https://app.example.com/join?referralCode=aB3dE9");
    expect(appendReferral("https://app.example.com/join", "aB3dE9", "purchase")).toBe(
      "https://app.example.com/join?referralCode=aB3dE9&rewardEventName=purchase",
    );
  });

  it("percent-encodes values", () => {
    const link = appendReferral("https://app.example.com/", "aB3dE9", "first order & more/é?#");
    expect(link).toBe("https://app.example.com/?referralCode=aB3dE9&rewardEventName=first%20order%20%26%20more%2F%C3%A9%3F%23");
    expect(new URL(link).searchParams.get("rewardEventName")).toBe("first order & more/é?#");
  });

  it("keeps parameters and fragment of an older redirect link", () => {
    expect(appendReferral("https://app.example.com/join?src=x#top", "aB3dE9", null)).toBe("https://app.example.com/join?src=x&referralCode=aB3dE9#top");
  });
});

describe("buildReferralLink", () => {
  const origin = "https://go.referloop.example";
  const web = { id: "p-web", appType: "Web", referralRedirectLink: "https://shop.example.com/join" } as const;
  const mobile = { id: "5b1c4a9e-0000-4000-8000-000000000001", appType: "Mobile", referralRedirectLink: "https://shop.example.com/join" } as const;

  it("points a Web project's link at its redirect link, and gives none without one", () => {
    expect(buildReferralLink(web, "aB3dE9", "purchase", origin)).toBe("https://shop.example.com/join?referralCode=aB3dE9&rewardEventName=purchase");
    expect(buildReferralLink({ ...web, referralRedirectLink: null }, "aB3dE9", null, origin)).toBeNull();
  });

  it("points a Mobile project's link at the hosted landing page naming the project, with or without a redirect link", () => {
    expect(buildReferralLink(mobile, "aB3dE9", null, origin)).toBe(`${origin}/r/${mobile.id}/aB3dE9`);
    expect(buildReferralLink({ ...mobile, referralRedirectLink: null }, "aB3dE9", "first order", origin)).toBe(
      `${origin}/r/${mobile.id}/aB3dE9?rewardEventName=first%20order`,
    );
  });
});
