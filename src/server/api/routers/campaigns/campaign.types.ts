import { z } from "zod";
import { projectIdInput } from "@/lib/schemas/common";
import {
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
    matchWindowMinutes: z
      .number()
      .int()
      .describe("Mobile projects: minutes after a landing-page click in which a first launch may be matched to it by device fingerprint."),
    updatedAt: z.string(),
  })
  .meta({ id: "CampaignDto" });

export const updateCampaignInput = updateCampaignBody.extend(projectIdInput);
