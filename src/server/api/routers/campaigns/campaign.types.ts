import { z } from "zod";
import { projectIdInput, withPath } from "@/lib/schemas/common";
import { EXAMPLE } from "@/lib/schemas/examples";
import {
  ATTRIBUTION_MODELS,
  defaultNewUserExperience,
  defaultReferrerExperience,
  newUserExperienceSchema,
  referrerExperienceSchema,
  updateCampaignBody,
} from "@/lib/schemas/campaigns";
import { defaultPortalSettings, milestoneSchema, portalSettingsSchema } from "@/lib/schemas/portal";
import { defaultRevokeOn, defaultRewardRules, revokeOnSchema, rewardRulesSchema } from "@/lib/schemas/reward-rules";

export const campaignDtoSchema = z
  .object({
    campaignId: z.guid().describe("The campaign uniqueId: the `{campaignId}` of the webhook create path."),
    projectId: z.guid(),
    referrerExperience: referrerExperienceSchema.meta({ id: "ReferrerExperience" }),
    newUserExperience: newUserExperienceSchema.meta({ id: "NewUserExperience" }),
    attributionWindowDays: z.number().int().describe("Days a Pending tracking item stays eligible for its reward."),
    matchWindowMinutes: z
      .number()
      .int()
      .describe("Mobile projects: minutes after a landing-page click in which a first launch may be matched to it by device fingerprint."),
    attributionModel: z.enum(ATTRIBUTION_MODELS).describe("Which arrival of a referee who arrived more than once may complete: first or last."),
    rewardRules: rewardRulesSchema.describe("Reward protection; all off by default."),
    milestones: z.array(milestoneSchema).describe("Tiers of successful referrals, ascending; none by default."),
    portal: portalSettingsSchema,
    revokeOn: revokeOnSchema.describe("Which provider events (inbound hooks) revoke the referral their payment completed; all on by default."),
    updatedAt: z.iso.datetime(),
  })
  .meta({
    id: "CampaignDto",
    examples: [
      {
        campaignId: EXAMPLE.campaignId,
        projectId: EXAMPLE.projectId,
        referrerExperience: defaultReferrerExperience,
        newUserExperience: { ...defaultNewUserExperience, promoText: "Your friend gave you 10 € off your first order." },
        attributionWindowDays: 30,
        matchWindowMinutes: 120,
        attributionModel: "first",
        rewardRules: { ...defaultRewardRules, maxRewardsPerReferrer: { perMonth: 10 } },
        milestones: [{ referrals: 3, name: "Silver" }, { referrals: 10, name: "Gold" }],
        portal: defaultPortalSettings,
        revokeOn: defaultRevokeOn,
        updatedAt: EXAMPLE.later,
      },
    ],
  });

export const updateCampaignInput = withPath(updateCampaignBody, projectIdInput);
