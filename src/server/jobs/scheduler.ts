import { getConfig, type Config } from "@/server/config";
import { deliveryRequested, inngest } from "./inngest-client";
import type { ClaimedAttempt, DeliveryLease } from "@/server/domain/deliveries/claim-attempts";
import { handToDeliveryWorker, leaseFromDeliveryWorker, wakeDeliveryWorker } from "./delivery-worker";

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
  /**
   * A lease for a reward claim to take its deliveries' first attempts under, so that they are sent
   * without a claim of their own (see DeliveryLease): the embedded worker's while it has room, else null.
   */
  lease(): Promise<DeliveryLease | null>;
  /** `leased`: those of the rows whose first attempt the claim took under this scheduler's lease. */
  enqueue(deliveryIds: string[], leased?: readonly ClaimedAttempt[]): Promise<void>;
};

const inngestScheduler: DeliveryScheduler = {
  kind: "inngest",
  // Each attempt is its own Inngest step, which claims it (performAttempt).
  lease: async () => null,
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
  lease: leaseFromDeliveryWorker,
  async enqueue(deliveryIds, leased = []) {
    if (leased.length) await handToDeliveryWorker(leased);
    // No worker in this process (a script, a test): a running worker's poll picks the rows up.
    if (deliveryIds.length > leased.length) await wakeDeliveryWorker();
  },
};

/** Inngest when it is configured, else the embedded worker. */
export function deliveryScheduler(config: Config = getConfig()): DeliveryScheduler {
  return config.inngestEnabled ? inngestScheduler : embeddedScheduler;
}
