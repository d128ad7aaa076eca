import { MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listRewardEvents } from "@/server/domain/referrals/list-reward-events";
import { rewardEventListInput, rewardEventPageSchema } from "./referral.types";

export const listRewardEventsProcedure = protectedProcedure
  .meta({
    permission: "referrals.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/reward-events",
      tags: ["Referrals"],
      summary: "Search the project's reward events, newest first",
      description:
        "Every reward event reported in the project, however it was reported, with its outcome and reason, " +
        "the tracking item it was reported for and that item's parties, filtered by any of `search` (a tracking id, or the referrer's or referee's client id, " +
        `matched exactly), \`event\`, \`outcome\` and the time it was reported (\`from\` inclusive, \`to\` exclusive), all together. \`pageSize\` is 1 to ${MAX_PAGE_SIZE}. ` +
        "A `from` that is not before `to`, an unknown outcome or an out-of-range page is a 400 naming the field.",
    },
  })
  .input(rewardEventListInput)
  .output(rewardEventPageSchema)
  .query(({ ctx, input: { projectId, ...search } }) => listRewardEvents(ctx.db, ctx.organizationId, projectId, search));
