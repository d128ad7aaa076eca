import { getConfig, type Config } from "@/server/config";
import { deliveryRequested, inngest } from "./inngest-client";
import { attemptsUnderLease, type DeliveryOutbox } from "@/server/domain/deliveries/outbox";
import { handToDeliveryWorker, leaseFromDeliveryWorker, wakeDeliveryWorker } from "./delivery-worker";
import { logger } from "@/server/observability/logger";

/**
 * The delivery scheduler seen from the rest of the app: told, after a commit, which delivery rows are
 * due now (a granted reward's outbox rows, a manually retried delivery).
 *
 * Announcing is best-effort, and that is the one rule for every caller: the rows are already committed
 * as Pending, so a failed announcement only delays them until a worker's sweep finds them (at once for
 * the embedded worker's next poll; after SAFETY_NET_GRACE_MS beside Inngest). enqueue therefore never
 * throws and never fails the request that called it.
 */
export type DeliveryScheduler = DeliveryOutbox & {
  readonly kind: "inngest" | "embedded";
  /** Rows made due again (a manual retry). */
  enqueue(deliveryIds: string[]): Promise<void>;
};

const inngestScheduler: DeliveryScheduler = {
  kind: "inngest",
  // Each attempt is its own Inngest step, which claims it (performAttempt).
  lease: async () => null,
  dispatch: (write) => inngestScheduler.enqueue(write.deliveries.map((d) => d.id)),
  async enqueue(deliveryIds) {
    if (deliveryIds.length === 0) return;
    try {
      await inngest.send(deliveryIds.map((deliveryId) => deliveryRequested.create({ deliveryId })));
    } catch (error) {
      logger().error({ err: error }, "Inngest could not be reached; the deliveries stay queued for the safety net");
    }
  },
};

const embeddedScheduler: DeliveryScheduler = {
  kind: "embedded",
  lease: leaseFromDeliveryWorker,
  async dispatch(write) {
    const leased = attemptsUnderLease(write);
    if (leased.length) await handToDeliveryWorker(leased);
    if (write.deliveries.length > leased.length) await wakeDeliveryWorker();
  },
  // No worker in this process (a script, a test): a running worker's poll picks the rows up.
  enqueue: async (deliveryIds) => {
    if (deliveryIds.length) await wakeDeliveryWorker();
  },
};

/** Inngest when it is configured, else the embedded worker. */
export function deliveryScheduler(config: Config = getConfig()): DeliveryScheduler {
  return config.inngestEnabled ? inngestScheduler : embeddedScheduler;
}
