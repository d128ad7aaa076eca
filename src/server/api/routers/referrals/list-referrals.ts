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
      description: "Every tracked arrival of the project with its parties, status and failure reason; filter by `status`.",
    },
  })
  .input(referralListInput)
  .output(referralPageSchema)
  .query(({ ctx, input: { projectId, ...filter } }) => listReferrals(ctx.db, ctx.organizationId, projectId, filter));
