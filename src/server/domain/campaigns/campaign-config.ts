import { z } from "zod";
import { jsonNumber } from "@/lib/json-zod";

const hexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, { error: "must be a hex colour #RRGGBB" });

/** The referrer's side: trigger button, sharing UI (modal or drawer) and theme. */
export const referrerExperienceSchema = z.object({
  triggerButton: z.object({
    buttonType: z.enum(["floating", "edge", "none"]),
    buttonPosition: z.enum(["bottom-right", "bottom-left", "top-right", "top-left"]),
  }),
  modal: z.object({
    componentType: z.enum(["modal", "drawer"]),
    modalTitle: z.string().max(200),
    modalDescription: z.string().max(500),
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
  promoText: z.string().max(500),
  promoPosition: z.enum(["top-left", "top-center", "top-right", "bottom-left", "bottom-center", "bottom-right"]),
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
};

/** Days a Pending tracking item stays eligible for its reward. */
export const DEFAULT_ATTRIBUTION_WINDOW_DAYS = 30;

/** Longest attribution window a campaign may set (about a year). */
export const MAX_ATTRIBUTION_WINDOW_DAYS = 365;

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
export const attributionWindowDaysSchema = jsonNumber(z.number().int().min(1).max(MAX_ATTRIBUTION_WINDOW_DAYS));

export type ReferrerExperiencePatch = z.infer<typeof referrerExperiencePatchSchema>;
export type NewUserExperiencePatch = z.infer<typeof newUserExperiencePatchSchema>;

const REFERRER_SECTIONS = ["triggerButton", "modal", "theme"] as const;

export function mergeReferrerExperience(base: ReferrerExperience, patch: ReferrerExperiencePatch = {}): ReferrerExperience {
  return {
    triggerButton: { ...base.triggerButton, ...definedOnly(patch.triggerButton) },
    modal: { ...base.modal, ...definedOnly(patch.modal) },
    theme: { ...base.theme, ...definedOnly(patch.theme) },
  };
}

export function mergeNewUserExperience(base: NewUserExperience, patch: NewUserExperiencePatch = {}): NewUserExperience {
  return { ...base, ...definedOnly(patch) };
}

/**
 * The stored configuration, read defensively: JSON written by an older version may miss fields or
 * hold values that are no longer allowed, and the widget must still get a complete, valid config.
 * A section that does not validate falls back to its defaults as a whole.
 */
export function readReferrerExperience(json: unknown): ReferrerExperience {
  const stored = asObject(json);
  const read = {} as Record<(typeof REFERRER_SECTIONS)[number], unknown>;
  for (const section of REFERRER_SECTIONS) {
    const schema = referrerExperienceSchema.shape[section];
    const parsed = schema.safeParse({ ...defaultReferrerExperience[section], ...asObject(stored[section]) });
    read[section] = parsed.success ? parsed.data : defaultReferrerExperience[section];
  }
  return read as ReferrerExperience;
}

export function readNewUserExperience(json: unknown): NewUserExperience {
  const parsed = newUserExperienceSchema.safeParse({ ...defaultNewUserExperience, ...asObject(json) });
  return parsed.success ? parsed.data : defaultNewUserExperience;
}

const asObject = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A key sent as undefined means "not sent", never "clear". */
const definedOnly = <T extends object>(value: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
