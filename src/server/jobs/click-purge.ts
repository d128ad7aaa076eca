import { getConfig, type Config } from "@/server/config";
import { getDb, type Db } from "@/server/db/client";
import { purgeExpiredClicks } from "@/server/domain/attribution/purge-expired-clicks";
import { purgeDeliveryBodies } from "@/server/domain/deliveries/purge-delivery-bodies";
import { purgeOrphanDeliveries } from "@/server/domain/deliveries/purge-orphan-deliveries";
import { closeDays } from "@/server/domain/stats/open-days";
import { logger } from "@/server/observability/logger";

/**
 * The purge job: expired landing-page clicks deleted, the request and response bodies of deliveries
 * past their retention (WEBHOOK_BODY_RETENTION_DAYS) removed, deliveries whose webhook is gone
 * deleted, and the days that ended two hours ago closed into the overview's roll-ups (closeDays). Each
 * part on its own, so one failing does not stop the others.
 */
export async function runPurge(
  db: Db,
  now: Date,
  config: Config,
): Promise<{ clicks: number; deliveryBodies: number; orphanDeliveries: number; openFrom: string | null }> {
  const clicks = await purgeExpiredClicks(db, now).catch((error: unknown) => {
    logger().error({ err: error }, "click purge failed");
    return 0;
  });
  const deliveryBodies = await purgeDeliveryBodies(db, now, config.deliveries.bodyRetentionDays).catch((error: unknown) => {
    logger().error({ err: error }, "delivery body purge failed");
    return 0;
  });
  const orphanDeliveries = await purgeOrphanDeliveries(db).catch((error: unknown) => {
    logger().error({ err: error }, "orphan delivery purge failed");
    return 0;
  });
  const openFrom = await closeDays(db).catch((error: unknown) => {
    logger().error({ err: error }, "closing the overview's days failed");
    return null;
  });
  return { clicks, deliveryBodies, orphanDeliveries, openFrom };
}

/** How often the purge runs (expired clicks, delivery bodies past retention, orphan deliveries, closed days), by either scheduler. */
export const CLICK_PURGE_INTERVAL_MS = 15 * 60_000;
export const CLICK_PURGE_CRON = "*/15 * * * *";

type PurgeHolder = { __referloopClickPurge?: { timer: NodeJS.Timeout; running: Promise<unknown> } };
// On globalThis, like the delivery worker: instrumentation and route modules do not share module state.
const holder = globalThis as PurgeHolder;

/**
 * The embedded scheduler of the purge job (runPurge): a timer in this process (the app server, or
 * `npm run worker`), once at start and every CLICK_PURGE_INTERVAL_MS. With Inngest configured, its
 * cron function runs the purge instead and this does nothing. Several processes purging at once is
 * harmless.
 */
export function startClickPurge(deps: { db?: () => Promise<Db>; config?: Config; intervalMs?: number; now?: () => Date } = {}): void {
  const config = deps.config ?? getConfig();
  if (config.inngestEnabled || holder.__referloopClickPurge) return;
  const now = deps.now ?? (() => new Date());
  const run = () => {
    const running = (deps.db ?? getDb)()
      .then((db) => runPurge(db, now(), config))
      .catch((error: unknown) => logger().error({ err: error }, "purge failed"));
    if (holder.__referloopClickPurge) holder.__referloopClickPurge.running = running;
    return running;
  };
  const timer = setInterval(run, deps.intervalMs ?? CLICK_PURGE_INTERVAL_MS);
  timer.unref(); // never what keeps a process alive
  holder.__referloopClickPurge = { timer, running: Promise.resolve() };
  void run();
}

/** Stops the timer, after a purge in progress. */
export async function stopClickPurge(): Promise<void> {
  const purge = holder.__referloopClickPurge;
  holder.__referloopClickPurge = undefined;
  if (!purge) return;
  clearInterval(purge.timer);
  await purge.running;
}
