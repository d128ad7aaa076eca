import { getConfig, type Config } from "@/server/config";
import { deliveryRequested, inngest } from "./inngest-client";
import { wakeDeliveryWorker } from "./delivery-worker";

/**
 * The delivery scheduler seen from the rest of the app: told, after a commit, which delivery rows are
 * due now (a granted reward's outbox rows, a manually retried delivery).
 *
 * Announcing is best-effort, and that is the one rule for every caller: the rows are already committed
 * as Pending, so a failed announcement only delays them until a worker's sweep finds them (at once for
 * the embedded worker's next poll; after SAFETY_NET_GRACE_MS beside Inngest). enqueue therefore never
 * throws and never fails the request that called it.
 */
export type DeliveryScheduler = {
  readonly kind: "inngest" | "embedded";
  enqueue(deliveryIds: string[]): Promise<void>;
};

const inngestScheduler: DeliveryScheduler = {
  kind: "inngest",
  async enqueue(deliveryIds) {
    if (deliveryIds.length === 0) return;
    try {
      await inngest.send(deliveryIds.map((deliveryId) => deliveryRequested.create({ deliveryId })));
    } catch (error) {
      console.error("[deliveries] Inngest could not be reached; the deliveries stay queued for the safety net", error);
    }
  },
};

const embeddedScheduler: DeliveryScheduler = {
  kind: "embedded",
  async enqueue(deliveryIds) {
    // No worker in this process (a script, a test): a running worker's poll picks the rows up.
    if (deliveryIds.length) await wakeDeliveryWorker();
  },
};

/** Inngest when it is configured, else the embedded worker. */
export function deliveryScheduler(config: Config = getConfig()): DeliveryScheduler {
  return config.inngestEnabled ? inngestScheduler : embeddedScheduler;
}
