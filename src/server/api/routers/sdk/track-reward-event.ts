import { IDEMPOTENCY_DOC, idempotencyKeyHeader } from "@/server/api/trpc/idempotency";
import { sdkBackendProcedure } from "@/server/api/trpc/sdk-procedures";
import { reportRewardEvent } from "@/server/domain/referrals/report-reward-event";
import { trackRewardEventInput, trackRewardEventOutput } from "./sdk.types";

export const trackRewardEventProcedure = sdkBackendProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/sdk/track-reward-event",
      tags: ["Client library"],
      summary: "Report a qualifying event (backend)",
      description:
        "The same reward path as `POST /public/projects/{projectId}/referrals/reward`: eligibility checks, exactly one claim, webhooks routed by `environment`. An item without a referee yet is bound to `newUserId` first (the referrer is never bound: `self_referral`); an item with a referee requires `newUserId` to be that referee (409 otherwise). A failed check is 200 with `rewardClaimed: false` and a `reason`.\n\n" + IDEMPOTENCY_DOC,
      requestHeaders: idempotencyKeyHeader,
    },
    errors: [
      { status: 404, description: "Unknown tracking id (or one of another project)." },
      { status: 409, description: "The item's referee is another user." },
    ],
  })
  .input(trackRewardEventInput)
  .output(trackRewardEventOutput)
  .mutation(({ ctx, input: { newUserId, ...event } }) => {
    const { project } = ctx.sdk;
    const target = { organizationId: project.organizationId, projectId: project.id };
    // Keyed like the REST reward call's: one Idempotency-Key names one reward whichever endpoint carries it.
    return reportRewardEvent({ db: ctx.db, outbox: ctx.scheduler }, target, { ...event, refereeId: newUserId }, ctx.headers.get("idempotency-key"));
  });
