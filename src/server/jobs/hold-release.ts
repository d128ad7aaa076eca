import { getConfig, type Config } from "@/server/config";
import { getDb, type Db } from "@/server/db/client";
import { releaseEndedHolds } from "@/server/domain/reviews/release-ended-holds";
import { logger } from "@/server/observability/logger";
import { deliveryScheduler } from "./scheduler";

/** How often rewards whose hold ended are completed, by either scheduler. */
export const HOLD_RELEASE_INTERVAL_MS = 5 * 60_000;
export const HOLD_RELEASE_CRON = "*/5 * * * *";

type ReleaseHolder = { __referloopHoldRelease?: { timer: NodeJS.Timeout; running: Promise<unknown> } };
// On globalThis, like the click purge: instrumentation and route modules do not share module state.
const holder = globalThis as ReleaseHolder;

/**
 * The embedded scheduler of ended holds: a timer in this process (the app server, or `npm run
 * worker`), once at start and every HOLD_RELEASE_INTERVAL_MS. With Inngest configured, its cron
 * function runs instead. Several processes releasing at once is harmless: each item is taken once.
 */
export function startHoldRelease(deps: { db?: () => Promise<Db>; config?: Config; intervalMs?: number; now?: () => Date } = {}): void {
  const config = deps.config ?? getConfig();
  if (config.inngestEnabled || holder.__referloopHoldRelease) return;
  const now = deps.now ?? (() => new Date());
  const outbox = deliveryScheduler(config);
  const run = () => {
    const running = (deps.db ?? getDb)()
      .then((db) => releaseEndedHolds({ db, outbox }, now()))
      .catch((error: unknown) => logger().error({ err: error }, "releasing ended reward holds failed"));
    if (holder.__referloopHoldRelease) holder.__referloopHoldRelease.running = running;
    return running;
  };
  const timer = setInterval(run, deps.intervalMs ?? HOLD_RELEASE_INTERVAL_MS);
  timer.unref(); // never what keeps a process alive
  holder.__referloopHoldRelease = { timer, running: Promise.resolve() };
  void run();
}

/** Stops the timer, after a run in progress. */
export async function stopHoldRelease(): Promise<void> {
  const release = holder.__referloopHoldRelease;
  holder.__referloopHoldRelease = undefined;
  if (!release) return;
  clearInterval(release.timer);
  await release.running;
}
