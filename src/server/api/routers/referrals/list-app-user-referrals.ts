import { LIST_COUNT_MAX } from "@/lib/schemas/common";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listAppUserReferrals } from "@/server/domain/referrals/list-app-user-referrals";
import { appUserReferralsInput, referralPageSchema } from "./referral.types";

export const listAppUserReferralsProcedure = protectedProcedure
  .meta({ permission: "referrals.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/users/{uniqueId}/referrals",
      tags: ["App users"],
      summary: "List the referrals an app user gave or received",
      description:
        "`direction=given`: arrivals through the user's code; `received`: the user's own arrivals (to find the tracking id that may complete). " +
        `Counted up to ${LIST_COUNT_MAX.toLocaleString("en-GB")}, as the project's list (\`totalCountExact\`).`,
    },
  })
  .input(appUserReferralsInput)
  .output(referralPageSchema)
  .query(({ ctx, input: { projectId, ...rest } }) => listAppUserReferrals(ctx.db, ctx.organizationId, projectId, rest));
