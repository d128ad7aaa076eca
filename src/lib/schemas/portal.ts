import { z } from "zod";
import { ATTRIBUTE_KEY_MAX_LENGTH } from "./app-users";
import { jsonBoolean, jsonNumber, pageOf, requiredText } from "./common";
import { EXAMPLE } from "./examples";

/*
 * The referrer's own page (issue 36): campaign milestones, the portal's settings, portal sessions and
 * the referral summary that the hosted page, the widget's "Your referrals" view and the mobile client
 * all draw. Shared by the procedures (and so the OpenAPI document), the campaign editor and the
 * client libraries (type-only).
 */

export const MAX_MILESTONES = 10;
export const MILESTONE_NAME_MAX_LENGTH = 60;
export const MAX_MILESTONE_REFERRALS = 100_000;

export const milestoneSchema = z
  .strictObject({
    referrals: jsonNumber(z.number().int().min(1).max(MAX_MILESTONE_REFERRALS)).describe(
      `Successful referrals (rewards claimed) that reach it, 1 to ${MAX_MILESTONE_REFERRALS}.`,
    ),
    name: requiredText(MILESTONE_NAME_MAX_LENGTH).describe(`Shown to the referrer, e.g. "Silver"; 1 to ${MILESTONE_NAME_MAX_LENGTH} characters.`),
  })
  .meta({ id: "Milestone" });

/** At most MAX_MILESTONES, each threshold once; stored (and answered) in ascending order. */
export const milestonesSchema = z
  .array(milestoneSchema)
  .max(MAX_MILESTONES)
  .superRefine((list, ctx) => {
    const seen = new Set<number>();
    list.forEach((m, i) => {
      if (seen.has(m.referrals)) ctx.addIssue({ code: "custom", path: [i, "referrals"], message: "must be different from every other milestone's" });
      seen.add(m.referrals);
    });
  })
  .transform((list) => [...list].sort((a, b) => a.referrals - b.referrals));

export type Milestone = z.infer<typeof milestoneSchema>;

export const PORTAL_SECTIONS = ["totals", "friends", "rewards", "milestones"] as const;
export type PortalSection = (typeof PORTAL_SECTIONS)[number];

export const portalSettingsSchema = z
  .object({
    sections: z
      .object(Object.fromEntries(PORTAL_SECTIONS.map((s) => [s, z.boolean()])) as Record<PortalSection, z.ZodBoolean>)
      .describe("Which sections the referrer's page and the widget's \"Your referrals\" view show (all by default). A hidden section is absent from the summary (null)."),
    friendNameAttribute: z
      .string()
      .max(ATTRIBUTE_KEY_MAX_LENGTH)
      .nullable()
      .describe("The referee attribute shown as a friend's name in the friends list (e.g. `name`). Null (default): names are masked (first character and dots)."),
  })
  .meta({ id: "PortalSettings" });

export type PortalSettings = z.infer<typeof portalSettingsSchema>;

export const defaultPortalSettings: PortalSettings = {
  sections: { totals: true, friends: true, rewards: true, milestones: true },
  friendNameAttribute: null,
};

export const portalSettingsPatchSchema = z.strictObject({
  sections: z
    .strictObject(Object.fromEntries(PORTAL_SECTIONS.map((s) => [s, jsonBoolean().optional()])) as Record<PortalSection, z.ZodOptional<ReturnType<typeof jsonBoolean>>>)
    .optional(),
  friendNameAttribute: z.string().trim().min(1, { error: "is required (null to mask names)" }).max(ATTRIBUTE_KEY_MAX_LENGTH).nullable().optional(),
});
export type PortalSettingsPatch = z.infer<typeof portalSettingsPatchSchema>;

/** The stored settings, read defensively: anything unreadable falls back to the defaults. */
export function readPortalSettings(json: unknown): PortalSettings {
  const stored = (json && typeof json === "object" ? json : {}) as Partial<PortalSettings>;
  const parsed = portalSettingsSchema.safeParse({
    sections: { ...defaultPortalSettings.sections, ...(stored.sections ?? {}) },
    friendNameAttribute: stored.friendNameAttribute ?? null,
  });
  return parsed.success ? parsed.data : defaultPortalSettings;
}

export function mergePortalSettings(base: PortalSettings, patch: PortalSettingsPatch = {}): PortalSettings {
  const sections = { ...base.sections };
  for (const s of PORTAL_SECTIONS) if (patch.sections?.[s] !== undefined) sections[s] = patch.sections[s]!;
  return { sections, friendNameAttribute: patch.friendNameAttribute === undefined ? base.friendNameAttribute : patch.friendNameAttribute };
}

/** Stored milestones, read defensively (an unreadable list is none). */
export function readMilestones(json: unknown): Milestone[] {
  const parsed = milestonesSchema.safeParse(json);
  return parsed.success ? parsed.data : [];
}

// ---------- Portal sessions ----------

export const DEFAULT_PORTAL_SESSION_SECONDS = 3600;
export const MIN_PORTAL_SESSION_SECONDS = 60;
export const MAX_PORTAL_SESSION_SECONDS = 86_400;

export const createPortalSessionBody = z
  .object({
    expiresInSeconds: jsonNumber(z.number().int().min(MIN_PORTAL_SESSION_SECONDS).max(MAX_PORTAL_SESSION_SECONDS))
      .default(DEFAULT_PORTAL_SESSION_SECONDS)
      .describe(`How long the session lasts, ${MIN_PORTAL_SESSION_SECONDS} to ${MAX_PORTAL_SESSION_SECONDS} seconds (24 hours); default ${DEFAULT_PORTAL_SESSION_SECONDS} (1 hour).`),
  })
  .meta({ title: "CreatePortalSessionRequest", examples: [{ expiresInSeconds: 3600 }] });

export const portalSessionSchema = z
  .object({
    token: z.string().describe("The session: a signed, read-only credential for this one user of this one project. Treat it as a secret; rotating the project secret revokes every session."),
    url: z.url().describe("The hosted page of the referrer's own view: link it or frame it (from the project's allowed origins only)."),
    expiresAt: z.iso.datetime(),
  })
  .meta({
    id: "PortalSession",
    examples: [{ token: "eyJ2IjoxLCJwIjoi...Rk9pZ0", url: "https://referloop.example.com/portal/eyJ2IjoxLCJwIjoi...Rk9pZ0", expiresAt: EXAMPLE.later }],
  });

// ---------- The referral summary ----------

/** A referred friend's state, in the referrer's words. */
export const FRIEND_STATUSES = ["arrived", "pending", "being_checked", "rewarded", "not_rewarded"] as const;
export type FriendStatus = (typeof FRIEND_STATUSES)[number];

const count = () => z.number().int().min(0);

export const referredFriendSchema = z
  .object({
    name: z.string().describe("The display attribute's value, or a masked name (first character and dots); `(erased)` for an erased friend."),
    masked: z.boolean(),
    status: z.enum(FRIEND_STATUSES).describe("`arrived` (followed the link, not signed up yet), `pending`, `being_checked` (in review), `rewarded`, `not_rewarded`."),
    arrivedAt: z.iso.datetime(),
    rewardedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "ReferredFriend", examples: [{ name: "G•••", masked: true, status: "rewarded", arrivedAt: EXAMPLE.at, rewardedAt: EXAMPLE.later }] });

export const referralSummarySchema = z
  .object({
    referralCode: z.string(),
    referralLink: z.string().nullable(),
    campaign: z
      .object({
        title: z.string(),
        description: z.string(),
        themeColor: z.string(),
        backgroundColor: z.string(),
        sections: portalSettingsSchema.shape.sections,
      })
      .describe("The campaign's texts and colours, and which sections it shows."),
    totals: z
      .object({
        arrived: count().describe("Friends who followed the link."),
        joined: count().describe("Of them, who signed up."),
        pending: count().describe("Signed up, reward not decided yet."),
        beingChecked: count().describe("Waiting for review."),
        rewarded: count().describe("Rewards earned (successful referrals)."),
      })
      .nullable(),
    friends: pageOf(referredFriendSchema).nullable().describe("Newest first, paged."),
    rewards: z
      .object({
        count: count(),
        recent: z.array(z.object({ eventName: z.string().nullable(), claimedAt: z.iso.datetime() })).describe("The rewards of the ten latest rewarded referrals (newest arrivals first)."),
      })
      .nullable(),
    milestones: z
      .object({
        successfulReferrals: count(),
        items: z.array(z.object({ referrals: z.number().int(), name: z.string(), reached: z.boolean(), reachedAt: z.iso.datetime().nullable() })),
        next: z.object({ referrals: z.number().int(), name: z.string(), remaining: z.number().int().min(1) }).nullable(),
      })
      .nullable(),
  })
  .meta({
    id: "ReferralSummary",
    examples: [
      {
        referralCode: EXAMPLE.referrer.referralCode,
        referralLink: `${EXAMPLE.redirectLink}?referralCode=${EXAMPLE.referrer.referralCode}`,
        campaign: { title: "Invite friends", description: "Share your link.", themeColor: "#4F46E5", backgroundColor: "#FFFFFF", sections: defaultPortalSettings.sections },
        totals: { arrived: 5, joined: 4, pending: 1, beingChecked: 1, rewarded: 2 },
        friends: { items: [{ name: "G•••", masked: true, status: "rewarded", arrivedAt: EXAMPLE.at, rewardedAt: EXAMPLE.later }], page: 1, pageSize: 20, totalCount: 1, hasNextPage: false },
        rewards: { count: 2, recent: [{ eventName: EXAMPLE.eventName, claimedAt: EXAMPLE.later }] },
        milestones: { successfulReferrals: 2, items: [{ referrals: 3, name: "Silver", reached: false, reachedAt: null }], next: { referrals: 3, name: "Silver", remaining: 1 } },
      },
    ],
  });

export type ReferralSummary = z.infer<typeof referralSummarySchema>;
