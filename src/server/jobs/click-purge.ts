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
