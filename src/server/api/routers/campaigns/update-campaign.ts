import {
  DEFAULT_ATTRIBUTION_MODEL,
  MAX_ATTRIBUTION_WINDOW_DAYS,
  MIN_ATTRIBUTION_WINDOW_DAYS,
  MODAL_DESCRIPTION_MAX_LENGTH,
  MODAL_TITLE_MAX_LENGTH,
  PROMO_TEXT_MAX_LENGTH,
} from "@/lib/schemas/campaigns";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { fieldChanges } from "@/server/domain/audit/field-changes";
import { recordAudit } from "@/server/domain/audit/record-audit";
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
        "`ReferrerExperience` (sections `triggerButton`, `modal`, `theme`) and `NewUserExperience` are both optional and merge field by field: a section or field not sent keeps its value. " +
        `Colours are \`#RRGGBB\`, \`tintAlpha\` 0 to 1, \`modalTitle\` at most ${MODAL_TITLE_MAX_LENGTH} characters, \`modalDescription\` at most ${MODAL_DESCRIPTION_MAX_LENGTH} and \`promoText\` at most ${PROMO_TEXT_MAX_LENGTH}. ` +
        `\`attributionWindowDays\` (${MIN_ATTRIBUTION_WINDOW_DAYS} to ${MAX_ATTRIBUTION_WINDOW_DAYS}) is how long a Pending item stays eligible; \`attributionModel\` (\`first\` or \`last\`, default \`${DEFAULT_ATTRIBUTION_MODEL}\`) which arrival of a referee who arrived more than once may complete. ` +
        "Creates the configuration when none exists.",
    },
  })
  .input(updateCampaignInput)
  .output(campaignDtoSchema)
  .mutation(({ ctx, input: { projectId, ...patch } }) =>
    updateCampaign(ctx.db, ctx.organizationId, projectId, patch, async (tx, before, after) => {
      const { campaignId: _c, updatedAt: _u, ...changed } = after;
      const { campaignId: _bc, updatedAt: _bu, ...was } = before;
      const changes = fieldChanges(was, changed);
      // The reward rules are what a review of fraud asks about: named apart from the experience.
      await recordAudit(tx, ctx.organizationId, auditActor(ctx), {
        action: Object.keys(changes).some((path) => path.startsWith("rewardRules.")) ? "campaign.update_reward_rules" : "campaign.update",
        target: { type: "campaign", id: after.campaignId },
        details: { projectId, changes },
      });
    }),
  );
