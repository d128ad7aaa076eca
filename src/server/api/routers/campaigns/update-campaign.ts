import { protectedProcedure } from "@/server/api/trpc";
import { updateCampaign } from "@/server/domain/campaigns/update-campaign";
import { campaignDtoSchema, updateCampaignInput } from "./campaign.types";

export const updateCampaignProcedure = protectedProcedure
  .meta({ permission: "campaigns.update",
    openapi: {
      method: "PUT",
      path: "/public/projects/{projectId}/campaign",
      tags: ["Campaign"],
      summary: "Update the campaign configuration",
      description:
        "`ReferrerExperience` (sections `triggerButton`, `modal`, `theme`) and `NewUserExperience` are both optional and merge field by field: a section or field not sent keeps its value. Colours are `#RRGGBB`, `tintAlpha` 0 to 1, `modalTitle` at most 200 characters, `modalDescription` and `promoText` at most 500. Creates the configuration when none exists.",
    },
  })
  .input(updateCampaignInput)
  .output(campaignDtoSchema)
  .mutation(({ ctx, input: { projectId, ...patch } }) => updateCampaign(ctx.db, ctx.organizationId, projectId, patch));
