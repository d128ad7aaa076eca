import { sdkBackendProcedure } from "@/server/api/trpc/sdk-procedures";
import { grantReward } from "@/server/domain/referrals/grant-reward";
import { trackRewardEventInput, trackRewardEventOutput } from "./sdk.types";

export const trackRewardEventProcedure = sdkBackendProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/sdk/track-reward-event",
      tags: ["Client library"],
      summary: "Report a qualifying event (backend)",
      description:
        "The same reward path as `POST /public/projects/{projectId}/referrals/reward`: eligibility checks, exactly one claim, webhooks routed by `environment`. An item without a referee yet is bound to `newUserId` first (the referrer is never bound: `self_referral`); an item with a referee requires `newUserId` to be that referee (409 otherwise). A failed check is 200 with `rewardClaimed: false` and a `reason`.",
    },
    errors: [
      { status: 404, description: "Unknown tracking id (or one of another project)." },
      { status: 409, description: "The item's referee is another user." },
    ],
  })
  .input(trackRewardEventInput)
  .output(trackRewardEventOutput)
  .mutation(async ({ ctx, input: { newUserId, ...event } }) => {
    const { project } = ctx.sdk;
    const lease = await ctx.scheduler.lease();
    const { deliveryIds, leased, ...result } = await grantReward(ctx.db, project.organizationId, project.id, { ...event, refereeId: newUserId }, lease);
    await ctx.scheduler.enqueue(deliveryIds, leased);
    return result;
  });
