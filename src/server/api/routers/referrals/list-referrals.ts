import { LIST_COUNT_MAX } from "@/lib/schemas/common";
import { NAMES_A_REFERRAL } from "@/lib/schemas/search";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listReferrals } from "@/server/domain/referrals/list-referrals";
import { referralListInput, referralPageSchema } from "./referral.types";

export const listReferralsProcedure = protectedProcedure
  .meta({ permission: "referrals.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/referrals",
      tags: ["Referrals"],
      summary: "List tracking items, newest first",
      description:
        `Every tracked arrival of the project with its parties, status and failure reason, newest first, filtered by any of \`search\` (${NAMES_A_REFERRAL}), ` +
        "`status` and the creation time (`from` inclusive, `to` exclusive), all together. " +
        `The matches are counted up to ${LIST_COUNT_MAX.toLocaleString("en-GB")}: when more match, \`totalCount\` is ${LIST_COUNT_MAX.toLocaleString("en-GB")} and \`totalCountExact\` false (page on while \`hasNextPage\`, which is always exact). ` +
        "A `from` that is not before `to`, an unknown status or an out-of-range page is a 400 naming the field.",
    },
  })
  .input(referralListInput)
  .output(referralPageSchema)
  .query(({ ctx, input: { projectId, ...filter } }) => listReferrals(ctx.db, ctx.organizationId, projectId, filter));
