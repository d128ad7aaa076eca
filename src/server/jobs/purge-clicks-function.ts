import { getConfig, type Config } from "@/server/config";
import { getDb, type Db } from "@/server/db/client";
import { purgeExpiredClicks } from "@/server/domain/attribution/purge-expired-clicks";
import { purgeDeliveryBodies } from "@/server/domain/deliveries/purge-delivery-bodies";
import { purgeOrphanDeliveries } from "@/server/domain/deliveries/purge-orphan-deliveries";
import { closeDays } from "@/server/domain/stats/open-days";
import { CLICK_PURGE_CRON } from "./click-purge";
import { inngest } from "./inngest-client";

/** The purge job (clicks, delivery bodies past retention, orphan deliveries, closed days) as an Inngest cron function: the scheduler when Inngest is configured. */
export function createPurgeClicksFunction(deps: { db?: () => Promise<Db>; config?: () => Config } = {}) {
  const db = deps.db ?? getDb;
  const config = deps.config ?? getConfig;
  return inngest.createFunction(
    { id: "purge-expired-clicks", triggers: [{ cron: CLICK_PURGE_CRON }], concurrency: { limit: 1 } },
    async ({ step }) => ({
      deleted: await step.run("purge", async () => purgeExpiredClicks(await db(), new Date())),
      deliveryBodiesPurged: await step.run("purge-delivery-bodies", async () =>
        purgeDeliveryBodies(await db(), new Date(), config().deliveries.bodyRetentionDays),
      ),
      orphanDeliveriesDeleted: await step.run("purge-orphan-deliveries", async () => purgeOrphanDeliveries(await db())),
      openFrom: await step.run("close-days", async () => closeDays(await db())),
    }),
  );
}

export const purgeClicksFunction = createPurgeClicksFunction();
