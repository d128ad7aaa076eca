import { REWARD_REASONS } from "@/lib/schemas/referrals";
import { IDEMPOTENCY_DOC, idempotencyKeyHeader } from "@/server/api/trpc/idempotency";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { reportRewardEvent } from "@/server/domain/referrals/report-reward-event";
import { rewardInput, rewardOutput } from "./referral.types";

const ELIGIBILITY = [
  "Runs the eligibility checks and the state change in one transaction. A failed check is not an HTTP error: the answer is 200 with `rewardClaimed: false` and a `reason`:",
  ...Object.entries(REWARD_REASONS).map(([reason, { effect }]) => `- \`${reason}\`: ${effect}.`),
  "On success the item becomes Completed, a reward-history entry is written, the counters move, and one webhook delivery is queued per enabled webhook whose environment scope matches. The webhook's `event` is `EventName`, else the item's pre-assigned event, else `reward`. An unknown tracking id is a 404.",
].join("\n");

export const grantRewardProcedure = protectedProcedure
  .meta({ permission: "referrals.write",
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/referrals/reward",
      tags: ["Referrals"],
      summary: "Report a reward event",
      description: `${ELIGIBILITY}\n\n${IDEMPOTENCY_DOC}`,
      requestHeaders: idempotencyKeyHeader,
    },
  })
  .input(rewardInput)
  .output(rewardOutput)
  .mutation(({ ctx, input: { projectId, ...body } }) =>
    reportRewardEvent({ db: ctx.db, outbox: ctx.scheduler }, { organizationId: ctx.organizationId, projectId }, body, ctx.headers.get("idempotency-key")),
  );
