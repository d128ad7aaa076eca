import { getDb, type Db } from "@/server/db/client";
import { releaseEndedHolds } from "@/server/domain/reviews/release-ended-holds";
import { HOLD_RELEASE_CRON } from "./hold-release";
import { inngest } from "./inngest-client";
import { deliveryScheduler } from "./scheduler";

/** Ended reward holds as an Inngest cron function: the scheduler when Inngest is configured. */
export function createReleaseHoldsFunction(deps: { db?: () => Promise<Db> } = {}) {
  const db = deps.db ?? getDb;
  return inngest.createFunction(
    { id: "release-ended-holds", triggers: [{ cron: HOLD_RELEASE_CRON }], concurrency: { limit: 1 } },
    async ({ step }) => ({ released: await step.run("release", async () => releaseEndedHolds({ db: await db(), outbox: deliveryScheduler() }, new Date())) }),
  );
}

export const releaseHoldsFunction = createReleaseHoldsFunction();
