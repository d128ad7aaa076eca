import type { ClaimedAttempt, DeliveryLease } from "./claim-attempts";

/** A delivery row an event (a reward claim) wrote, with what sending it needs of its webhook. */
export type WrittenDelivery = { id: string; webhookId: string; url: string; secretEncrypted: string; previousSecretEncrypted?: string | null };

/**
 * What one committed event (a reward claim) put in the outbox: its type, stored payload and delivery
 * rows, written with their first attempt already claimed under `lease` when the writer had one (see
 * DeliveryLease).
 */
export type OutboxWrite<Payload = unknown> = {
  projectId: string;
  eventType: string;
  eventName: string;
  payload: Payload;
  deliveries: WrittenDelivery[];
  lease: DeliveryLease | null;
};

/**
 * The delivery scheduler as the reward path sees it (src/server/jobs/scheduler.ts implements it): a
 * lease to write a claim's first attempts under, and, after the commit, where the written rows go.
 */
export type DeliveryOutbox = {
  /** The embedded worker's lease while it has room, else null. */
  lease(): Promise<DeliveryLease | null>;
  /** Announces committed rows; those written under a lease go to its worker now. Never throws: the rows are safe already. */
  dispatch(write: OutboxWrite): Promise<void>;
};

/** The attempts a claim took under its lease, as claimDueAttempts would have returned them. */
export const attemptsUnderLease = ({ projectId, eventType, eventName, payload, deliveries, lease }: OutboxWrite): ClaimedAttempt[] =>
  lease
    ? deliveries.map(({ id, webhookId, url, secretEncrypted, previousSecretEncrypted }) => ({
        id,
        projectId,
        webhookId,
        eventName,
        eventType,
        payload,
        test: false,
        attemptNumber: 1,
        webhook: { url, secretEncrypted, previousSecretEncrypted: previousSecretEncrypted ?? null, enabled: true },
      }))
    : [];
