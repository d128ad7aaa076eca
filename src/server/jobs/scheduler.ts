/**
 * The delivery scheduler seen from the rest of the app. Placeholder interface: the webhook delivery
 * work replaces the body with the embedded worker or Inngest, chosen by configuration.
 */
export type DeliveryScheduler = {
  /** Called after the reward transaction commits, with the outbox rows it wrote. */
  enqueue(deliveryIds: string[]): Promise<void>;
};

export function deliveryScheduler(): DeliveryScheduler {
  return { enqueue: async () => {} };
}
