import { getDb, type Db } from "@/server/db/client";
import { foldCredits } from "@/server/domain/referrals/referral-credits";
import { logger } from "@/server/observability/logger";

/**
 * How long after a fold the next one starts. A credit is counted at once either way; the fold keeps
 * the credits few, so that each read of a user's count probes only a handful.
 */
export const CREDIT_FOLD_INTERVAL_MS = 1000;

type FoldHolder = { __referloopCreditFold?: { timer?: NodeJS.Timeout; running: Promise<unknown>; stopped: boolean } };
// On globalThis, like the purge: instrumentation and route modules do not share module state.
const holder = globalThis as FoldHolder;

/**
 * The credit fold (referral-credits.ts): a timer in every process that serves or works (the app server,
 * `npm run worker`), beside Inngest too, since a fold is one short statement. Processes folding at once
 * take turns: a fold that finds another (or a revocation) in progress folds nothing and waits for its
 * next turn.
 */
export function startCreditFold(deps: { db?: () => Promise<Db>; intervalMs?: number } = {}): void {
  if (holder.__referloopCreditFold) return;
  const fold = { running: Promise.resolve() as Promise<unknown>, stopped: false, timer: undefined as NodeJS.Timeout | undefined };
  holder.__referloopCreditFold = fold;
  const run = () => {
    fold.running = (deps.db ?? getDb)()
      .then((db) => foldCredits(db, { wait: false }))
      .catch((error: unknown) => logger().error({ err: error }, "folding the referral credits failed"))
      .finally(() => {
        if (fold.stopped) return;
        fold.timer = setTimeout(run, deps.intervalMs ?? CREDIT_FOLD_INTERVAL_MS);
        fold.timer.unref(); // never what keeps a process alive
      });
  };
  run();
}

/** Stops the timer, after a fold in progress. */
export async function stopCreditFold(): Promise<void> {
  const fold = holder.__referloopCreditFold;
  holder.__referloopCreditFold = undefined;
  if (!fold) return;
  fold.stopped = true;
  clearTimeout(fold.timer);
  await fold.running;
}
