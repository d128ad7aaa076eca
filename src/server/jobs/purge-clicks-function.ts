import { getDb, type Db } from "@/server/db/client";
import { purgeExpiredClicks } from "@/server/domain/attribution/purge-expired-clicks";
import { CLICK_PURGE_CRON } from "./click-purge";
import { inngest } from "./inngest-client";

/** The click purge as an Inngest cron function: the scheduler when Inngest is configured. */
export function createPurgeClicksFunction(deps: { db?: () => Promise<Db> } = {}) {
  const db = deps.db ?? getDb;
  return inngest.createFunction(
    { id: "purge-expired-clicks", triggers: [{ cron: CLICK_PURGE_CRON }], concurrency: { limit: 1 } },
    async ({ step }) => ({ deleted: await step.run("purge", async () => purgeExpiredClicks(await db(), new Date())) }),
  );
}

export const purgeClicksFunction = createPurgeClicksFunction();
