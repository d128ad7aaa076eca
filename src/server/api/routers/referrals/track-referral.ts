import { IDEMPOTENCY_DOC, idempotencyKeyHeader, idempotently } from "@/server/api/trpc/idempotency";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { trackInput, trackOutput } from "./referral.types";

export const trackReferralProcedure = protectedProcedure
  .meta({
    permission: "referrals.write",
    // Tracking creates the referee when it is new, which draws a referral code.
    errors: [{ status: 503, description: "No free referral code could be drawn for a new referee; retry the request." }],
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/referrals/track",
      tags: ["Referrals"],
      summary: "Track a referral arrival",
      description:
        "Creates a `Pending` tracking item and returns its `referralTrackingId`. An unknown code is a 404; a referee who is the referrer is a 400 (`self_referral`). " +
        IDEMPOTENCY_DOC,
      requestHeaders: idempotencyKeyHeader,
    },
  })
  .input(trackInput)
  .output(trackOutput)
  .mutation(({ ctx, input: { projectId, ...body } }) =>
    idempotently(ctx, `referrals.track:${projectId}`, body, () => trackReferral(ctx.db, ctx.organizationId, projectId, body)),
  );
