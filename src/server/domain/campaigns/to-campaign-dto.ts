import type { Campaign } from "@/generated/prisma/client";
import type { AttributionModel, NewUserExperience, ReferrerExperience } from "@/lib/schemas/campaigns";
import { readMilestones, readPortalSettings, type Milestone, type PortalSettings } from "@/lib/schemas/portal";
import { readRevokeOn, readRewardRules, type RevokeOn, type RewardRules } from "@/lib/schemas/reward-rules";
import { readNewUserExperience, readReferrerExperience } from "@/server/domain/campaigns/campaign-config";

export type CampaignDto = {
  /** The campaign uniqueId (the `{campaignId}` of the webhook create path). */
  campaignId: string;
  projectId: string;
  referrerExperience: ReferrerExperience;
  newUserExperience: NewUserExperience;
  attributionWindowDays: number;
  matchWindowMinutes: number;
  attributionModel: AttributionModel;
  rewardRules: RewardRules;
  milestones: Milestone[];
  portal: PortalSettings;
  revokeOn: RevokeOn;
  updatedAt: string;
};

export const toCampaignDto = (campaign: Campaign): CampaignDto => ({
  campaignId: campaign.id,
  projectId: campaign.projectId,
  referrerExperience: readReferrerExperience(campaign.referrerExperience),
  newUserExperience: readNewUserExperience(campaign.newUserExperience),
  attributionWindowDays: campaign.attributionWindowDays,
  matchWindowMinutes: campaign.matchWindowMinutes,
  attributionModel: campaign.attributionModel,
  rewardRules: readRewardRules(campaign.rewardRules),
  milestones: readMilestones(campaign.milestones),
  portal: readPortalSettings(campaign.portal),
  revokeOn: readRevokeOn(campaign.revokeOn),
  updatedAt: campaign.updatedAt.toISOString(),
});
