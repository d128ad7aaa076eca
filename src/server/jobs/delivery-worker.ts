import { getConfig, type Config } from "@/server/config";
import { getDb, type Db } from "@/server/db/client";
import type { ClaimedAttempt, DeliveryLease } from "@/server/domain/deliveries/claim-attempts";
import { attemptOptions } from "./attempt-options";
import { createEmbeddedWorker, type EmbeddedWorker } from "./embedded-worker";

/** Beside Inngest, the embedded worker only takes rows this overdue: a lost event, a failed run. */
export const SAFETY_NET_GRACE_MS = 5 * 60_000;

type WorkerHolder = { __referloopDeliveryWorker?: Promise<EmbeddedWorker> };
// On globalThis: the instrumentation hook and Next's route modules do not share module state.
const holder = globalThis as WorkerHolder;

/**
 * Starts this process's delivery worker once (from instrumentation.ts, Node runtime only, or the
 * standalone worker). Without Inngest it is the scheduler; with Inngest it is a safety net for rows
 * overdue by SAFETY_NET_GRACE_MS. Its state is the delivery rows, so it resumes whatever a previous
 * process left.
 */
export function startDeliveryWorker(deps: { db?: () => Promise<Db>; config?: Config } = {}): Promise<EmbeddedWorker> {
  const config = deps.config ?? getConfig();
  holder.__referloopDeliveryWorker ??= (deps.db ?? getDb)()
    .then((db) => {
      const worker = createEmbeddedWorker({
        db,
        pollIntervalMs: config.deliveries.pollIntervalMs,
        overdueGraceMs: config.inngestEnabled ? SAFETY_NET_GRACE_MS : 0,
        attempt: attemptOptions(config),
      });
      worker.start();
      return worker;
    })
    .catch((error) => {
      holder.__referloopDeliveryWorker = undefined;
      throw error;
    });
  return holder.__referloopDeliveryWorker;
}

/** This process's worker, if it runs one. */
const runningWorker = async () => holder.__referloopDeliveryWorker?.catch(() => undefined);

/** New work is due now: wakes this process's worker, if it runs one. */
export async function wakeDeliveryWorker(): Promise<void> {
  (await runningWorker())?.wake();
}

/** A lease of this process's worker for a reward claim's first attempts (see EmbeddedWorker.lease). */
export async function leaseFromDeliveryWorker(): Promise<DeliveryLease | null> {
  return (await runningWorker())?.lease() ?? null;
}

/** Attempts claimed under leaseFromDeliveryWorker's lease, for this process's worker to send now. */
export async function handToDeliveryWorker(attempts: readonly ClaimedAttempt[]): Promise<void> {
  (await runningWorker())?.take(attempts);
}

/** Attempts this process's worker has in flight (0 without one). */
export async function deliveryWorkerSlotsInUse(): Promise<number> {
  return (await runningWorker())?.slotsInUse() ?? 0;
}

/** Stops the worker started by startDeliveryWorker, after its in-flight attempts (graceful shutdown). */
export async function stopDeliveryWorker(): Promise<void> {
  const worker = holder.__referloopDeliveryWorker;
  holder.__referloopDeliveryWorker = undefined;
  await (await worker?.catch(() => undefined))?.stop();
}
