import { REVOKE_RESULTS } from "@/lib/schemas/referrals";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { IDEMPOTENCY_DOC, idempotencyKeyHeader } from "@/server/api/trpc/idempotency";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { runOnce } from "@/server/domain/idempotency/run-once";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { revokeReferral } from "@/server/domain/referrals/revoke-referral";
import { revokeInput, revokeOutput } from "./referral.types";

const DESCRIPTION = [
  "Takes a referral's reward back (a refund, a chargeback, abuse found later); the item becomes `Revoked`, which is final: a later reward event for it answers `rewardClaimed: false` with `already_revoked`. The answer's `revoked` says what happened:",
  ...Object.entries(REVOKE_RESULTS).map(([code, words]) => `- \`${code}\`: ${words}.`),
  "A referral with no reward granted or held is a 409 naming its state (`status` rule `pending`: nothing completed yet; `failed`: it never earned one). Of a revocation and a concurrent grant (a review's approval, a hold ending), one goes first: either the reward is never granted, or it is granted and then withdrawn. Audited.",
  IDEMPOTENCY_DOC,
].join("\n\n");

export const revokeReferralProcedure = protectedProcedure
  .meta({
    permission: "referrals.write",
    errors: [{ status: 409, description: "The referral has no reward granted or held to take back: it is Pending (not completed, not held) or Failed." }],
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/referrals/{trackingId}/revoke",
      tags: ["Referrals"],
      summary: "Revoke a referral's reward",
      description: DESCRIPTION,
      requestHeaders: idempotencyKeyHeader,
    },
  })
  .input(revokeInput)
  .output(revokeOutput)
  .mutation(async ({ ctx, input: { projectId, trackingId, reason } }) => {
    await getOwnedProject(ctx.db, ctx.organizationId, projectId);
    const source = ctx.actor.kind === "user" ? "dashboard" : "api";
    const scope = `referrals.revoke:${projectId}`;
    return runOnce(ctx.db, { organizationId: ctx.organizationId, key: ctx.headers.get("idempotency-key"), scope, input: { trackingId, reason } }, () =>
      revokeReferral({ db: ctx.db, outbox: ctx.scheduler }, projectId, { trackingId, reason, source }, { organizationId: ctx.organizationId, actor: auditActor(ctx) }),
    );
  });
