import { z } from "zod";
import { AttributionModel } from "@/generated/prisma/enums";
import { ATTRIBUTE_KEY_MAX_LENGTH } from "./app-users";
import { caseInsensitive, jsonNumber } from "./common";
import { milestonesSchema, MAX_MILESTONES, portalSettingsPatchSchema } from "./portal";
import { revokeOnPatchSchema, rewardRulesPatchSchema } from "./reward-rules";

export const MODAL_TITLE_MAX_LENGTH = 200;
export const MODAL_DESCRIPTION_MAX_LENGTH = 500;
export const PROMO_TEXT_MAX_LENGTH = 500;
export const BUTTON_TYPES = ["floating", "edge", "none"] as const;
export const BUTTON_POSITIONS = ["bottom-right", "bottom-left", "top-right", "top-left"] as const;
export const COMPONENT_TYPES = ["modal", "drawer"] as const;
export const PROMO_POSITIONS = ["top-left", "top-center", "top-right", "bottom-left", "bottom-center", "bottom-right"] as const;

const hexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, { error: "must be a hex colour #RRGGBB" });

/** The referrer's side: trigger button, sharing UI (modal or drawer) and theme. */
export const referrerExperienceSchema = z.object({
  triggerButton: z.object({
    buttonType: z.enum(BUTTON_TYPES),
    buttonPosition: z.enum(BUTTON_POSITIONS),
  }),
  modal: z.object({
    componentType: z.enum(COMPONENT_TYPES),
    modalTitle: z.string().max(MODAL_TITLE_MAX_LENGTH),
    modalDescription: z.string().max(MODAL_DESCRIPTION_MAX_LENGTH),
  }),
  theme: z.object({
    themeColor: hexColor,
    backgroundColor: hexColor,
    tintColor: hexColor,
    tintAlpha: jsonNumber(z.number().min(0).max(1)),
  }),
});

/** The referee's side: the dismissible banner shown when a referral code is in the URL. */
export const newUserExperienceSchema = z.object({
  promoText: z.string().max(PROMO_TEXT_MAX_LENGTH),
  promoPosition: z.enum(PROMO_POSITIONS),
  referrerNameAttribute: z
    .string()
    .trim()
    .min(1, { error: "is required" })
    .max(ATTRIBUTE_KEY_MAX_LENGTH)
    .describe("The referrer's attribute that holds their display name, shown on the banner (\"Ada invited you\"). Default `name`."),
});

export type ReferrerExperience = z.infer<typeof referrerExperienceSchema>;
export type NewUserExperience = z.infer<typeof newUserExperienceSchema>;

export const defaultReferrerExperience: ReferrerExperience = {
  triggerButton: { buttonType: "floating", buttonPosition: "bottom-right" },
  modal: {
    componentType: "modal",
    modalTitle: "Invite friends",
    modalDescription: "Share your link. When a friend joins and gets started, you both get rewarded.",
  },
  theme: { themeColor: "#4F46E5", backgroundColor: "#FFFFFF", tintColor: "#000000", tintAlpha: 0.4 },
};

export const defaultNewUserExperience: NewUserExperience = {
  promoText: "",
  promoPosition: "top-center",
  referrerNameAttribute: "name",
};

/** Days a Pending tracking item stays eligible for its reward. */
export const DEFAULT_ATTRIBUTION_WINDOW_DAYS = 30;

/**
 * Which arrival of a referee may complete when they arrived more than once (through one referrer's
 * link or several): their first (the default) or their last. A referee completes at most one
 * referral per project either way.
 */
export const ATTRIBUTION_MODELS = Object.values(AttributionModel) as [AttributionModel, ...AttributionModel[]];
export type { AttributionModel };
export const DEFAULT_ATTRIBUTION_MODEL: AttributionModel = "first";

/** Longest attribution window a campaign may set (about a year). */
export const MIN_ATTRIBUTION_WINDOW_DAYS = 1;
export const MAX_ATTRIBUTION_WINDOW_DAYS = 365;

/**
 * Deferred deep linking (Mobile projects): how long after a landing-page click a first launch may be
 * attributed to it by device fingerprint. The spec's 2 hours by default; 1 minute to 24 hours. Clicks
 * older than their campaign's window are purged.
 */
export const DEFAULT_MATCH_WINDOW_MINUTES = 120;
export const MIN_MATCH_WINDOW_MINUTES = 1;
export const MAX_MATCH_WINDOW_MINUTES = 24 * 60;
export const matchWindowMinutesSchema = jsonNumber(z.number().int().min(MIN_MATCH_WINDOW_MINUTES).max(MAX_MATCH_WINDOW_MINUTES));

/*
 * Updates merge field by field: a section sent with one field changes that field only, and a
 * section not sent stays as it is. The patch schemas are the update payload's shape.
 */
// Strict: a misspelt or PascalCase nested field ("Theme") is a 400 naming it, not a silent no-op.
export const referrerExperiencePatchSchema = z.strictObject({
  triggerButton: referrerExperienceSchema.shape.triggerButton.partial().strict().optional(),
  modal: referrerExperienceSchema.shape.modal.partial().strict().optional(),
  theme: referrerExperienceSchema.shape.theme.partial().strict().optional(),
});
export const newUserExperiencePatchSchema = newUserExperienceSchema.partial().strict();
export const attributionWindowDaysSchema = jsonNumber(z.number().int().min(MIN_ATTRIBUTION_WINDOW_DAYS).max(MAX_ATTRIBUTION_WINDOW_DAYS));

export type ReferrerExperiencePatch = z.infer<typeof referrerExperiencePatchSchema>;
export type NewUserExperiencePatch = z.infer<typeof newUserExperiencePatchSchema>;

/** The campaign update body: both sections optional, each merged field by field. */
export const updateCampaignBody = z
  .object({
    referrerExperience: referrerExperiencePatchSchema.optional().describe("Fields to change; absent fields keep their value."),
    newUserExperience: newUserExperiencePatchSchema.optional().describe("Fields to change; absent fields keep their value."),
    attributionWindowDays: attributionWindowDaysSchema.optional().describe("Days a Pending tracking item stays eligible for its reward."),
    matchWindowMinutes: matchWindowMinutesSchema
      .optional()
      .describe(
        `Mobile projects: minutes after a landing-page click in which a first launch may be matched to it by device fingerprint (${MIN_MATCH_WINDOW_MINUTES} to ${MAX_MATCH_WINDOW_MINUTES}, default ${DEFAULT_MATCH_WINDOW_MINUTES}).`,
      ),
    attributionModel: caseInsensitive(ATTRIBUTION_MODELS)
      .optional()
      .describe("Which arrival of a referee who arrived more than once may complete: `first` (default) or `last` (any case)."),
    rewardRules: rewardRulesPatchSchema.optional().describe("Reward protection: caps per referrer, disposable e-mail and same-device rules, a hold. Fields not sent keep their value."),
    milestones: milestonesSchema
      .optional()
      .describe(
        `Tiers of successful referrals, e.g. \`[{ "referrals": 3, "name": "Silver" }]\`: at most ${MAX_MILESTONES}, each threshold once; replaces the list (\`[]\` removes them). A referrer reaches each once, when a reward brings their successful referrals to it; a revoked reward does not take a reached milestone back.`,
      ),
    portal: portalSettingsPatchSchema.optional().describe("The referrer's own page: which sections show, and the friends' display attribute. Fields not sent keep their value."),
    revokeOn: revokeOnPatchSchema.optional().describe("Which provider events revoke the referral they completed (a full refund, a dispute, a cancellation in trial). Fields not sent keep their value."),
  })
  .meta({
    title: "UpdateCampaignRequest",
    examples: [
      {
        referrerExperience: { modal: { modalTitle: "Give 10 €, get 10 €" }, theme: { themeColor: "#0F766E" } },
        newUserExperience: { promoText: "Your friend gave you 10 € off your first order.", promoPosition: "top-center" },
        attributionWindowDays: 30,
        attributionModel: "first",
      },
    ],
  });
