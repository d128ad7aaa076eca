import { z } from "zod";
import { projectIdInput } from "@/lib/schemas/common";
import {
  ATTRIBUTION_MODELS,
  newUserExperienceSchema,
  referrerExperienceSchema,
  updateCampaignBody,
} from "@/lib/schemas/campaigns";

export const campaignDtoSchema = z
  .object({
    campaignId: z.string().describe("The campaign uniqueId: the `{campaignId}` of the webhook create path."),
    projectId: z.string(),
    referrerExperience: referrerExperienceSchema.meta({ id: "ReferrerExperience" }),
    newUserExperience: newUserExperienceSchema.meta({ id: "NewUserExperience" }),
    attributionWindowDays: z.number().int().describe("Days a Pending tracking item stays eligible for its reward."),
    attributionModel: z.enum(ATTRIBUTION_MODELS).describe("Which arrival of a referee who arrived more than once may complete: first or last."),
    updatedAt: z.string(),
  })
  .meta({ id: "CampaignDto" });

export const updateCampaignInput = updateCampaignBody.extend(projectIdInput);
