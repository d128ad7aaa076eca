import { z } from "zod";

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
    tintAlpha: z.number().min(0).max(1),
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
