import type { ClaimedAttempt, DeliveryLease } from "./claim-attempts";
import type { RewardPayload } from "./reward-payload";

/** A delivery row a reward claim wrote, with what sending it needs of its webhook. */
export type WrittenDelivery = { id: string; webhookId: string; url: string; secretEncrypted: string; previousSecretEncrypted?: string | null };

/**
 * What one committed reward claim put in the outbox: its payload and delivery rows, written with their
 * first attempt already claimed under `lease` when the claim had one (see DeliveryLease).
 */
export type OutboxWrite = { payload: RewardPayload; deliveries: WrittenDelivery[]; lease: DeliveryLease | null };

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
export const attemptsUnderLease = ({ payload, deliveries, lease }: OutboxWrite): ClaimedAttempt[] =>
  lease
    ? deliveries.map(({ id, webhookId, url, secretEncrypted, previousSecretEncrypted }) => ({
        id,
        projectId: payload.projectId,
        webhookId,
        eventName: payload.event,
        payload,
        test: false,
        attemptNumber: 1,
        webhook: { url, secretEncrypted, previousSecretEncrypted: previousSecretEncrypted ?? null, enabled: true },
      }))
    : [];
