import { z } from "zod";
import { projectIdInput } from "@/server/api/schemas";
import {
  attributionWindowDaysSchema,
  newUserExperiencePatchSchema,
  newUserExperienceSchema,
  referrerExperiencePatchSchema,
  referrerExperienceSchema,
} from "@/server/domain/campaigns/campaign-config";

export const campaignDtoSchema = z
  .object({
    campaignId: z.string().describe("The campaign uniqueId: the `{campaignId}` of the webhook create path."),
    projectId: z.string(),
    referrerExperience: referrerExperienceSchema.meta({ id: "ReferrerExperience" }),
    newUserExperience: newUserExperienceSchema.meta({ id: "NewUserExperience" }),
    attributionWindowDays: z.number().int().describe("Days a Pending tracking item stays eligible for its reward."),
    updatedAt: z.string(),
  })
  .meta({ id: "CampaignDto" });

export const updateCampaignInput = z.object({
  ...projectIdInput,
  referrerExperience: referrerExperiencePatchSchema.optional().describe("Fields to change; absent fields keep their value."),
  newUserExperience: newUserExperiencePatchSchema.optional().describe("Fields to change; absent fields keep their value."),
  attributionWindowDays: attributionWindowDaysSchema.optional(),
});
