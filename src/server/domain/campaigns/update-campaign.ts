import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import type { AttributionModel, NewUserExperiencePatch, ReferrerExperiencePatch } from "@/lib/schemas/campaigns";
import { mergePortalSettings, readPortalSettings, type Milestone, type PortalSettingsPatch } from "@/lib/schemas/portal";
import { mergeRewardRules, readRevokeOn, readRewardRules, type RevokeOnPatch, type RewardRulesPatch } from "@/lib/schemas/reward-rules";
import {
  mergeNewUserExperience,
  mergeReferrerExperience,
  readNewUserExperience,
  readReferrerExperience,
} from "@/server/domain/campaigns/campaign-config";
import { ensureCampaign } from "@/server/domain/campaigns/ensure-campaign";
import { toCampaignDto, type CampaignDto } from "@/server/domain/campaigns/to-campaign-dto";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

export type UpdateCampaignInput = {
  referrerExperience?: ReferrerExperiencePatch;
  newUserExperience?: NewUserExperiencePatch;
  attributionWindowDays?: number;
  matchWindowMinutes?: number;
  attributionModel?: AttributionModel;
  rewardRules?: RewardRulesPatch;
  milestones?: Milestone[];
  portal?: PortalSettingsPatch;
  revokeOn?: RevokeOnPatch;
};

/**
 * Merges the sent fields into the configuration (creating it if missing); whatever is not sent stays.
 * The row is locked for the read-merge-write, so two concurrent partial updates both take effect.
 * `audit` records the change (the configuration before and after) in the same transaction.
 */
export async function updateCampaign(
  db: Db,
  organizationId: string,
  projectId: string,
  input: UpdateCampaignInput,
  audit?: (tx: Prisma.TransactionClient, before: CampaignDto, after: CampaignDto) => Promise<void>,
): Promise<CampaignDto> {
  const { referrerExperience: referrerPatch, newUserExperience: newUserPatch, attributionWindowDays: windowDays, matchWindowMinutes, attributionModel, rewardRules, milestones, portal, revokeOn } = input;
  const project = await getOwnedProject(db, organizationId, projectId);
  const campaign = await db.$transaction(async (tx) => {
    const { id } = await ensureCampaign(tx, project.id);
    await tx.$queryRaw`SELECT 1 FROM "Campaign" WHERE "id" = ${id} FOR UPDATE`;
    const current = await tx.campaign.findUniqueOrThrow({ where: { id } });
    const updated = await tx.campaign.update({
      where: { id },
      data: {
        referrerExperience: mergeReferrerExperience(readReferrerExperience(current.referrerExperience), referrerPatch),
        newUserExperience: mergeNewUserExperience(readNewUserExperience(current.newUserExperience), newUserPatch),
        ...(windowDays === undefined ? {} : { attributionWindowDays: windowDays }),
        ...(matchWindowMinutes === undefined ? {} : { matchWindowMinutes }),
        ...(attributionModel === undefined ? {} : { attributionModel }),
        ...(rewardRules === undefined ? {} : { rewardRules: mergeRewardRules(readRewardRules(current.rewardRules), rewardRules) }),
        ...(milestones === undefined ? {} : { milestones }),
        ...(portal === undefined ? {} : { portal: mergePortalSettings(readPortalSettings(current.portal), portal) }),
        ...(revokeOn === undefined ? {} : { revokeOn: { ...readRevokeOn(current.revokeOn), ...revokeOn } }),
      },
    });
    await audit?.(tx, toCampaignDto(current), toCampaignDto(updated));
    return updated;
  });
  return toCampaignDto(campaign);
}
