import { describe, expect, it } from "vitest";
import { buildReferralLink } from "@/server/domain/referrals/build-referral-link";

describe("buildReferralLink", () => {
  it("appends the code, and the event name when given", () => {
    expect(buildReferralLink("https://app.example.com/join", "aB3dE9", null)).toBe(
      "https://app.example.com/join?referralCode=aB3dE9",
    );
    expect(buildReferralLink("https://app.example.com/join", "aB3dE9", "purchase")).toBe(
      "https://app.example.com/join?referralCode=aB3dE9&rewardEventName=purchase",
    );
  });

  it("percent-encodes values", () => {
    const link = buildReferralLink("https://app.example.com/", "aB3dE9", "first order & more/é?#");
    expect(link).toBe("https://app.example.com/?referralCode=aB3dE9&rewardEventName=first%20order%20%26%20more%2F%C3%A9%3F%23");
    expect(new URL(link).searchParams.get("rewardEventName")).toBe("first order & more/é?#");
  });

  it("keeps parameters and fragment of an older redirect link", () => {
    expect(buildReferralLink("https://app.example.com/join?src=x#top", "aB3dE9", null)).toBe(
      "https://app.example.com/join?src=x&referralCode=aB3dE9#top",
    );
  });
});
