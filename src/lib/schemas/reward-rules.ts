import { z } from "zod";
import { caseInsensitive, jsonBoolean, jsonNumber } from "./common";

/*
 * A campaign's reward protection (`rewardRules` on the campaign record): caps per referrer, the
 * disposable e-mail and same-device rules, and a hold. All off by default, so a campaign that sets
 * none behaves exactly as the spec says. One definition for the API and the dashboard's form.
 */

/** `off`: not checked. `review`: the reward waits in the review queue. `block`: the reward is refused. */
export const RULE_MODES = ["off", "review", "block"] as const;
export type RuleMode = (typeof RULE_MODES)[number];

export const MAX_HOLD_DAYS = 90;
/** A cap above this is no cap; the bound keeps the count's arithmetic and the document honest. */
export const MAX_REWARD_CAP = 1_000_000;

const cap = jsonNumber(z.number().int().min(1).max(MAX_REWARD_CAP));

/** Rewards one referrer may earn in the campaign's project per UTC day, per UTC calendar month and in all. */
export const referrerCapsSchema = z
  .strictObject({
    perDay: cap.optional().describe("Rewards per referrer per UTC day (from 00:00 UTC)."),
    perMonth: cap.optional().describe("Rewards per referrer per UTC calendar month."),
    lifetime: cap.optional().describe("Rewards per referrer in all."),
  })
  .meta({ id: "ReferrerCaps" });
export type ReferrerCaps = z.infer<typeof referrerCapsSchema>;

export const holdDaysSchema = jsonNumber(z.number().int().min(0).max(MAX_HOLD_DAYS));

/** The stored and answered rules, every field present. */
export const rewardRulesSchema = z
  .object({
    maxRewardsPerReferrer: referrerCapsSchema.describe("Caps on one referrer's rewards; a reward over one is refused (`referrer_cap_reached`). Each optional."),
    disposableEmail: z
      .enum(RULE_MODES)
      .describe("The referee's `email` attribute is at a disposable-mail domain: `review` holds the reward for review, `block` refuses it (`disposable_email`)."),
    sameDevice: z
      .enum(RULE_MODES)
      .describe(
        "The referee's client was seen from an address or device fingerprint their referrer's client used within 24 hours of it: `review` holds the reward, `block` refuses it (`same_device`).",
      ),
    holdDays: z.number().int().min(0).max(MAX_HOLD_DAYS).describe(`Days (0 to ${MAX_HOLD_DAYS}) a reward that passes every check waits in review before it completes by itself.`),
  })
  .meta({ id: "RewardRules" });
export type RewardRules = z.infer<typeof rewardRulesSchema>;

export const defaultRewardRules: RewardRules = { maxRewardsPerReferrer: {}, disposableEmail: "off", sameDevice: "off", holdDays: 0 };

/** The update: fields not sent keep their value; `maxRewardsPerReferrer` replaces the caps as a whole (`{}` removes them). */
export const rewardRulesPatchSchema = z
  .strictObject({
    maxRewardsPerReferrer: referrerCapsSchema.optional().describe("Replaces the caps as a whole: a cap not sent is removed, `{}` removes all."),
    disposableEmail: caseInsensitive(RULE_MODES).optional().describe("off, review or block (any case)."),
    sameDevice: caseInsensitive(RULE_MODES).optional().describe("off, review or block (any case)."),
    holdDays: holdDaysSchema.optional().describe(`0 to ${MAX_HOLD_DAYS}.`),
  })
  .meta({ id: "RewardRulesUpdate" });
export type RewardRulesPatch = z.infer<typeof rewardRulesPatchSchema>;

/** Why a reward waits in the review queue, in words for people. */
export const REVIEW_REASONS = {
  disposable_email: "The referee's e-mail address is at a disposable-mail domain",
  same_device: "The referee used the same address or device as their referrer",
  hold: "The campaign holds every reward for a number of days",
} as const satisfies Record<string, string>;
export type ReviewReason = keyof typeof REVIEW_REASONS;
export const REVIEW_REASON_CODES = Object.keys(REVIEW_REASONS) as [ReviewReason, ...ReviewReason[]];

/** The rules set nothing: no cap, both rules off, no hold (a campaign as the spec alone describes it). */
export const setsNoRule = (rules: RewardRules): boolean =>
  Object.keys(rules.maxRewardsPerReferrer).length === 0 && rules.disposableEmail === "off" && rules.sameDevice === "off" && rules.holdDays === 0;

/** The stored rules, read defensively: a field missing or no longer valid is off. */
export function readRewardRules(json: unknown): RewardRules {
  const stored = json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  const field = <K extends keyof RewardRules>(key: K): RewardRules[K] => {
    const parsed = rewardRulesSchema.shape[key].safeParse(stored[key]);
    return parsed.success ? (parsed.data as RewardRules[K]) : defaultRewardRules[key];
  };
  return { maxRewardsPerReferrer: field("maxRewardsPerReferrer"), disposableEmail: field("disposableEmail"), sameDevice: field("sameDevice"), holdDays: field("holdDays") };
}

export function mergeRewardRules(base: RewardRules, patch: RewardRulesPatch = {}): RewardRules {
  return {
    maxRewardsPerReferrer: patch.maxRewardsPerReferrer ?? base.maxRewardsPerReferrer,
    disposableEmail: patch.disposableEmail ?? base.disposableEmail,
    sameDevice: patch.sameDevice ?? base.sameDevice,
    holdDays: patch.holdDays ?? base.holdDays,
  };
}

export const hasCaps = (rules: RewardRules) => Object.values(rules.maxRewardsPerReferrer).some((n) => n !== undefined);

/**
 * Which provider events revoke the referral their payment completed (the inbound hooks): a full
 * refund, a dispute (chargeback), a subscription cancelled while still in its trial. All on by default.
 */
export const revokeOnSchema = z
  .object({
    refund: z.boolean().describe("Stripe `charge.refunded` for the full amount; RevenueCat `CANCELLATION` with `cancel_reason` `CUSTOMER_SUPPORT` (a refund)."),
    dispute: z.boolean().describe("Stripe `charge.dispute.created`."),
    trialCancellation: z.boolean().describe("Stripe `customer.subscription.deleted` of a subscription still in its trial; RevenueCat `CANCELLATION` in a `TRIAL` period."),
  })
  .meta({ id: "RevokeOn" });
export type RevokeOn = z.infer<typeof revokeOnSchema>;
export type RevokeKind = keyof RevokeOn;
export const defaultRevokeOn: RevokeOn = { refund: true, dispute: true, trialCancellation: true };

export const revokeOnPatchSchema = z
  .strictObject({ refund: jsonBoolean().optional(), dispute: jsonBoolean().optional(), trialCancellation: jsonBoolean().optional() })
  .meta({ id: "RevokeOnUpdate" });
export type RevokeOnPatch = z.infer<typeof revokeOnPatchSchema>;

/** The stored setting, read defensively: a field missing or not a boolean is its default. */
export function readRevokeOn(json: unknown): RevokeOn {
  const stored = json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  const flag = (key: RevokeKind) => (typeof stored[key] === "boolean" ? (stored[key] as boolean) : defaultRevokeOn[key]);
  return { refund: flag("refund"), dispute: flag("dispute"), trialCancellation: flag("trialCancellation") };
}
