import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getReferral } from "@/server/domain/referrals/get-referral";
import { referralDetailSchema, referralPathInput } from "./referral.types";

export const getReferralProcedure = protectedProcedure
  .meta({
    permission: "referrals.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/referrals/{trackingId}",
      tags: ["Referrals"],
      summary: "Get a tracking item, its reward events and its deliveries",
      description:
        "The tracking item, every reward event reported for it (oldest first) with its outcome and reason, and the webhook deliveries of its reward. " +
        "An unknown tracking id, or another organisation's, is a 404.",
    },
  })
  .input(referralPathInput)
  .output(referralDetailSchema)
  .query(({ ctx, input }) => getReferral(ctx.db, ctx.organizationId, input.projectId, input.trackingId));
