import { sdkProcedure } from "@/server/api/trpc/sdk-procedures";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { trackReferralInput, trackReferralOutput } from "./sdk.types";

export const sdkTrackReferralProcedure = sdkProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/sdk/track-referral",
      tags: ["Client library"],
      summary: "Track an anonymous referral arrival",
      description: "A visitor arrived through a referral link; who they are is not known yet. Creates a `Pending` tracking item without a referee (bound later by init-app-user or track-reward-event). An unknown code is a 404.",
    },
    errors: [{ status: 404, description: "Unknown referral code." }],
  })
  .input(trackReferralInput)
  .output(trackReferralOutput)
  .mutation(async ({ ctx, input }) => {
    const { project } = ctx.sdk;
    const { referralTrackingId, promotionalText } = await trackReferral(ctx.db, project.organizationId, project.id, input);
    return { referralTrackingId, promotionalText };
  });
