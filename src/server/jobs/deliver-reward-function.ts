import { getConfig } from "@/server/config";
import { getDb, type Db } from "@/server/db/client";
import { performAttempt, type AttemptOptions } from "@/server/domain/deliveries/perform-attempt";
import { MAX_ATTEMPTS } from "@/server/domain/deliveries/retry-policy";
import { deliveryRequested, inngest } from "./inngest-client";
import { attemptOptions } from "./attempt-options";

export type DeliverRewardDeps = {
  db?: () => Promise<Db>;
  attempt?: () => Omit<AttemptOptions, "workerId">;
};

/**
 * Each attempt is its own step and the backoff a durable sleep, so the schedule is exactly the
 * policy's: `retries: 0` keeps Inngest from adding retries of its own. A run ends when performAttempt
 * says anything but "retry" or "not due"; the policy allows at most MAX_ATTEMPTS attempts in all, so
 * the loop bound is never what stops it. One run per delivery executes at a time (concurrency key), but
 * a sleeping run holds no slot: a duplicate event's run may start during another's backoff, and it
 * then sleeps until the attempt is due, when one of the two claims it. A run that wakes early by the
 * clocks' difference sleeps the rest likewise.
 */
export function createDeliverRewardFunction(deps: DeliverRewardDeps = {}) {
  const db = deps.db ?? getDb;
  const attempt = deps.attempt ?? (() => attemptOptions(getConfig()));
  return inngest.createFunction(
    {
      id: "deliver-reward-webhook",
      retries: 0,
      triggers: [deliveryRequested],
      concurrency: { key: "event.data.deliveryId", limit: 1 },
    },
    async ({ event, step, runId }) => {
      const perform = async () => performAttempt(await db(), event.data.deliveryId, { ...attempt(), workerId: `inngest:${runId}` });
      for (let n = 1, waits = 0; ; ) {
        const result = await step.run(waits === 0 ? `attempt-${n}` : `attempt-${n}-${waits}`, perform);
        if (result.outcome === "skipped" && result.reason === "not_due") {
          await step.sleep(`due-${n}-${++waits}`, result.delayMs);
          continue;
        }
        if (result.outcome !== "retry" || n >= MAX_ATTEMPTS) return result;
        await step.sleep(`backoff-${n}`, result.delayMs);
        n++;
        waits = 0;
      }
    },
  );
}

export const deliverRewardFunction = createDeliverRewardFunction();
