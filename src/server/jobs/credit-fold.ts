import { getDb, type Db } from "@/server/db/client";
import { foldCredits } from "@/server/domain/referrals/referral-credits";
import { startRepeatingJob, stopRepeatingJob } from "./repeating-job";

/**
 * How long after a fold the next one starts. A credit is counted at once either way; the fold keeps
 * the credits few, so that each read of a user's count probes only a handful.
 */
export const CREDIT_FOLD_INTERVAL_MS = 1000;

/**
 * The credit fold (referral-credits.ts): a repeating job in every process that serves or works (the app
 * server, `npm run worker`), beside Inngest too, since a fold is one short statement. Processes folding
 * at once take turns: a fold that finds another (or a revocation) in progress folds nothing and waits
 * for its next turn.
 */
export function startCreditFold(deps: { db?: () => Promise<Db>; intervalMs?: number } = {}): void {
  startRepeatingJob("folding the referral credits", deps.intervalMs ?? CREDIT_FOLD_INTERVAL_MS, async () =>
    foldCredits(await (deps.db ?? getDb)(), { wait: false }),
  );
}

export const stopCreditFold = () => stopRepeatingJob("folding the referral credits");
