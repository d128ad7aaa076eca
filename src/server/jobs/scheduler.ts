import { getDb } from "@/server/db/client";
import { createEmbeddedWorker, type EmbeddedWorker } from "./embedded-worker";
import { deliveryRequested, inngest, inngestConfigured } from "./inngest-client";

/** Beside Inngest, the embedded worker only takes rows this overdue: a lost event, a failed run. */
export const SAFETY_NET_GRACE_MS = 5 * 60_000;

/** The delivery scheduler seen from the rest of the app. */
export type DeliveryScheduler = {
  readonly kind: "inngest" | "embedded";
  /**
   * Called after the reward transaction commits (and by a manual retry) with Pending delivery ids.
   * Embedded: wakes this process's worker and never throws (the rows are the queue). Inngest: sends
   * one event per id and throws if Inngest cannot be reached; the rows stay Pending, and the safety
   * net started by startDeliveryWorker() sends them after SAFETY_NET_GRACE_MS.
   */
  enqueue(deliveryIds: string[]): Promise<void>;
};

type WorkerHolder = { __referloopDeliveryWorker?: Promise<EmbeddedWorker> };
// On globalThis: the instrumentation hook and Next's route modules do not share module state.
const holder = globalThis as WorkerHolder;

const inngestScheduler: DeliveryScheduler = {
  kind: "inngest",
  async enqueue(deliveryIds) {
    if (deliveryIds.length === 0) return;
    await inngest.send(deliveryIds.map((deliveryId) => deliveryRequested.create({ deliveryId })));
  },
};

const embeddedScheduler: DeliveryScheduler = {
  kind: "embedded",
  async enqueue(deliveryIds) {
    if (deliveryIds.length === 0) return;
    // No worker in this process (a script, a test): a running worker's poll picks the rows up.
    (await holder.__referloopDeliveryWorker?.catch(() => undefined))?.wake();
  },
};

/** Inngest when it is configured (see inngestConfigured), else the embedded worker. */
export function deliveryScheduler(): DeliveryScheduler {
  return inngestConfigured() ? inngestScheduler : embeddedScheduler;
}

/**
 * Starts this process's delivery worker once (call it from instrumentation.ts, Node runtime only).
 * Without Inngest it is the scheduler; with Inngest it is a safety net for rows overdue by
 * SAFETY_NET_GRACE_MS. Its state is the delivery rows, so it resumes whatever a previous process left.
 */
export function startDeliveryWorker(): Promise<EmbeddedWorker> {
  holder.__referloopDeliveryWorker ??= getDb()
    .then((db) => {
      const worker = createEmbeddedWorker({ db, overdueGraceMs: inngestConfigured() ? SAFETY_NET_GRACE_MS : 0 });
      worker.start();
      return worker;
    })
    .catch((error) => {
      holder.__referloopDeliveryWorker = undefined;
      throw error;
    });
  return holder.__referloopDeliveryWorker;
}

/** Stops the worker started by startDeliveryWorker, after its in-flight attempts (graceful shutdown). */
export async function stopDeliveryWorker(): Promise<void> {
  const worker = holder.__referloopDeliveryWorker;
  holder.__referloopDeliveryWorker = undefined;
  await (await worker?.catch(() => undefined))?.stop();
}
