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
        "Every tracked arrival of the project with its parties, status and failure reason, newest first, filtered by any of `search` (a tracking id, or the referrer's or referee's " +
        "client id, matched exactly), `status` and the creation time (`from` inclusive, `to` exclusive), all together. " +
        "A `from` that is not before `to`, an unknown status or an out-of-range page is a 400 naming the field.",
    },
  })
  .input(referralListInput)
  .output(referralPageSchema)
  .query(({ ctx, input: { projectId, ...filter } }) => listReferrals(ctx.db, ctx.organizationId, projectId, filter));
