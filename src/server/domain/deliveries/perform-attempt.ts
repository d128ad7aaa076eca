import { randomUUID } from "node:crypto";
import type { Db } from "@/server/db/client";
import { claimAttempt } from "./claim-attempts";
import { recordAttempts } from "./record-attempts";
import { DEFAULT_ATTEMPT_TIMEOUT_MS, sendAttempt, type SendOptions } from "./send-attempt";

/** A lease outlives the attempt budget by this much, so only a worker that died loses its delivery. */
export const LEASE_MARGIN_MS = 30_000;

export type AttemptOptions = SendOptions & {
  /** Who holds the lease while the request is in flight. */
  workerId?: string;
};

export type AttemptOutcome =
  | { outcome: "succeeded" | "dead"; attemptNumber: number }
  | { outcome: "retry"; attemptNumber: number; nextAttemptAt: Date; delayMs: number }
  | { outcome: "skipped"; reason: "not_found" | "not_pending" | "claimed_elsewhere" }
  /** The next attempt is not due yet (a duplicate event during a backoff): due in `delayMs`. */
  | { outcome: "skipped"; reason: "not_due"; delayMs: number };

/** How long a worker holds a delivery while one attempt is in flight. */
export const leaseMs = (options: { timeoutMs?: number }) => (options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS) + LEASE_MARGIN_MS;

/**
 * One attempt of one Pending delivery, start to end: claim it (lease and attempt number in one
 * statement, so two callers can never send the same attempt; the unique (deliveryId, attemptNumber)
 * of the log is a second guard), send it, and record the entry and the delivery's next state. No
 * transaction spans the HTTP call. The Inngest function runs this per step; the embedded worker runs
 * the same three parts over batches.
 */
export async function performAttempt(db: Db, deliveryId: string, options: AttemptOptions): Promise<AttemptOutcome> {
  const workerId = options.workerId ?? `direct:${randomUUID()}`;
  const now = options.now?.() ?? new Date();
  const claim = await claimAttempt(db, { deliveryId, workerId, leaseMs: leaseMs(options), now });
  if ("nextAttemptAt" in claim) return { outcome: "skipped", reason: "not_due", delayMs: claim.nextAttemptAt.getTime() - now.getTime() };
  if ("skipped" in claim) return { outcome: "skipped", reason: claim.skipped };
  const result = await sendAttempt(claim.claimed, options);
  const alerts = await recordAttempts(db, [result], options.now?.());
  if (alerts.length) await options.alert?.(db, alerts);
  return { ...result.next, attemptNumber: result.attempt.attemptNumber };
}

export { DEFAULT_ATTEMPT_TIMEOUT_MS, WEBHOOK_DISABLED_ERROR } from "./send-attempt";
export { LOST_ATTEMPT_ERROR } from "./record-attempts";
