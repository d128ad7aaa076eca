import { z } from "zod";
import { projectIdInput } from "@/lib/schemas/common";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getCampaign } from "@/server/domain/campaigns/get-campaign";
import { campaignDtoSchema } from "./campaign.types";

export const getCampaignProcedure = protectedProcedure
  .meta({ permission: "campaigns.read", openapi: { method: "GET", path: "/public/projects/{projectId}/campaign", tags: ["Campaign"], summary: "Get the campaign configuration", description: "The referrer and new-user experiences, the attribution window and the attribution model; defaults until you change them." } })
  .input(z.object(projectIdInput))
  .output(campaignDtoSchema)
  .query(({ ctx, input }) => getCampaign(ctx.db, ctx.organizationId, input.projectId));
