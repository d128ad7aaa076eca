import type { Db } from "@/server/db/client";
import type { DeliveryOutbox } from "@/server/domain/deliveries/outbox";
import { runOnce } from "@/server/domain/idempotency/run-once";
import { metrics } from "@/server/observability/metrics";
import { grantReward, type GrantRewardInput } from "./grant-reward";
import type { RewardOutcome } from "./reward-context";

export type RewardEventTarget = { organizationId: string; projectId: string };

/**
 * The reward path of every caller (the REST reward call, the client library's track-reward-event, the
 * inbound provider hooks): a lease from the outbox, the grant, then the outbox told what the claim
 * wrote. Under an `Idempotency-Key` it runs once per key and input, whichever endpoint carried it.
 */
export async function reportRewardEvent(
  deps: { db: Db; outbox: DeliveryOutbox; now?: () => Date },
  { organizationId, projectId }: RewardEventTarget,
  input: GrantRewardInput,
  idempotencyKey: string | null = null,
): Promise<RewardOutcome> {
  const scope = `referrals.reward:${projectId}`;
  return runOnce(deps.db, { organizationId, key: idempotencyKey, scope, input }, async () => {
    const { written, alsoWritten = [], ...outcome } = await grantReward(deps.db, organizationId, projectId, input, await deps.outbox.lease(), deps.now?.());
    if (written) await deps.outbox.dispatch(written);
    for (const write of alsoWritten) await deps.outbox.dispatch(write);
    metrics.rewards.inc({ outcome: outcome.rewardClaimed ? "claimed" : "refused", reason: outcome.reason ?? "" });
    return outcome;
  });
}
