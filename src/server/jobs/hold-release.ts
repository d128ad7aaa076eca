import { getConfig, type Config } from "@/server/config";
import { getDb, type Db } from "@/server/db/client";
import { releaseEndedHolds } from "@/server/domain/reviews/release-ended-holds";
import { startRepeatingJob, stopRepeatingJob } from "./repeating-job";
import { deliveryScheduler } from "./scheduler";

/** How often rewards whose hold ended are completed, by either scheduler. */
export const HOLD_RELEASE_INTERVAL_MS = 5 * 60_000;
export const HOLD_RELEASE_CRON = "*/5 * * * *";

/**
 * The embedded scheduler of ended holds: a repeating job in this process (the app server, or `npm run
 * worker`), at start and every HOLD_RELEASE_INTERVAL_MS. With Inngest configured, its cron function
 * runs instead. Several processes releasing at once is harmless: each item is taken once.
 */
export function startHoldRelease(deps: { db?: () => Promise<Db>; config?: Config; intervalMs?: number; now?: () => Date } = {}): void {
  const config = deps.config ?? getConfig();
  if (config.inngestEnabled) return;
  const now = deps.now ?? (() => new Date());
  const outbox = deliveryScheduler(config);
  startRepeatingJob("releasing ended reward holds", deps.intervalMs ?? HOLD_RELEASE_INTERVAL_MS, async () =>
    releaseEndedHolds({ db: await (deps.db ?? getDb)(), outbox }, now()),
  );
}

export const stopHoldRelease = () => stopRepeatingJob("releasing ended reward holds");
