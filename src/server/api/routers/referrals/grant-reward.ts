import { IDEMPOTENCY_DOC, idempotently } from "@/server/api/idempotency";
import { idempotencyKeyHeader } from "@/server/api/idempotency-header";
import { protectedProcedure } from "@/server/api/trpc";
import { grantReward } from "@/server/domain/referrals/grant-reward";
import { rewardInput, rewardOutput } from "./referral.types";

const ELIGIBILITY = `
Runs the eligibility checks and the state change in one transaction. A failed check is not an HTTP error: the answer is 200 with \`rewardClaimed: false\` and a \`reason\`:
- \`already_completed\` / \`already_failed\`: the item is already final and is not changed (the reward is never claimed twice).
- \`event_mismatch\`: the item was pre-assigned another event (names match exactly, case-sensitive). The event is recorded on its own and the item **stays Pending**: each reward event is tracked independently.
- \`self_referral\`: referrer and referee are the same user. The item becomes Failed.
- \`expired\`: the item is older than the campaign's attribution window (30 days by default). The item becomes Failed.
- \`duplicate_referee\`: this referrer was already rewarded for this referee. The item becomes Failed.
On success the item becomes Completed, a reward-history entry is written, the counters move, and one webhook delivery is queued per enabled webhook whose environment scope matches. The webhook's \`event\` is \`EventName\`, else the item's pre-assigned event, else \`reward\`. An unknown tracking id is a 404.
`.trim();

export const grantRewardProcedure = protectedProcedure
  .meta({
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
    idempotently(ctx, `referrals.reward:${projectId}`, body, async () => {
      const { deliveryIds, ...result } = await grantReward(ctx.db, ctx.organizationId, projectId, body);
      await ctx.scheduler.enqueue(deliveryIds);
      return result;
    }),
  );
