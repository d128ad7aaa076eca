import { getConfig, type Config } from "@/server/config";
import { getDb, type Db } from "@/server/db/client";
import { purgeExpiredClicks } from "@/server/domain/attribution/purge-expired-clicks";
import { purgeDeliveryBodies } from "@/server/domain/deliveries/purge-delivery-bodies";
import { purgeOrphanDeliveries } from "@/server/domain/deliveries/purge-orphan-deliveries";
import { closeDays } from "@/server/domain/stats/open-days";
import { logger } from "@/server/observability/logger";
import { startRepeatingJob, stopRepeatingJob } from "./repeating-job";

/**
 * The purge job: expired landing-page clicks deleted, the request and response bodies of deliveries
 * past their retention (WEBHOOK_BODY_RETENTION_DAYS) removed, deliveries whose webhook is gone
 * deleted, and the days that ended two hours ago closed into the overview's roll-ups (closeDays). Each
 * part on its own, so one failing does not stop the others.
 */
export async function runPurge(db: Db, now: Date, config: Config) {
  return {
    clicks: await alone("click purge", () => purgeExpiredClicks(db, now), 0),
    deliveryBodies: await alone("delivery body purge", () => purgeDeliveryBodies(db, now, config.deliveries.bodyRetentionDays), 0),
    orphanDeliveries: await alone("orphan delivery purge", () => purgeOrphanDeliveries(db), 0),
    openFrom: await alone("closing the overview's days", () => closeDays(db), null),
  };
}

/** One part of the purge: its error logged, and `failed` in its place. */
const alone = <T>(what: string, part: () => Promise<T>, failed: T): Promise<T> =>
  part().catch((error: unknown) => {
    logger().error({ err: error }, `${what} failed`);
    return failed;
  });

/** How often the purge runs (expired clicks, delivery bodies past retention, orphan deliveries, closed days), by either scheduler. */
export const CLICK_PURGE_INTERVAL_MS = 15 * 60_000;
export const CLICK_PURGE_CRON = "*/15 * * * *";

/**
 * The embedded scheduler of the purge job (runPurge): a repeating job in this process (the app server,
 * or `npm run worker`), at start and every CLICK_PURGE_INTERVAL_MS. With Inngest configured, its cron
 * function runs the purge instead and this does nothing. Several processes purging at once is
 * harmless.
 */
export function startClickPurge(deps: { db?: () => Promise<Db>; config?: Config; intervalMs?: number; now?: () => Date } = {}): void {
  const config = deps.config ?? getConfig();
  if (config.inngestEnabled) return;
  const now = deps.now ?? (() => new Date());
  startRepeatingJob("purge", deps.intervalMs ?? CLICK_PURGE_INTERVAL_MS, async () => runPurge(await (deps.db ?? getDb)(), now(), config));
}

export const stopClickPurge = () => stopRepeatingJob("purge");
