import { randomUUID } from "node:crypto";
import type { Delivery, Webhook } from "@/generated/prisma/client";
import type { UrlRules } from "@/server/config";
import type { Db } from "@/server/db/client";
import { decryptSecret } from "@/server/domain/webhooks/webhook-secret";
import { checkWebhookUrl } from "@/server/domain/webhooks/webhook-url";
import { postWebhook, type PostResult } from "./post-webhook";
import { rewardPayloadBody } from "./reward-payload";
import { nextStep, parseRetryAfter, type AttemptSignal, type PolicyOptions } from "./retry-policy";
import { deliveryHeaders } from "./sign-delivery";

/** The spec's total budget for one attempt: connect, send, and read the answer. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
/** A lease outlives the budget by this much, so only a worker that died loses its delivery. */
export const LEASE_MARGIN_MS = 30_000;
const MAX_ERROR_LENGTH = 500;

export const WEBHOOK_DISABLED_ERROR = "The webhook is disabled; the delivery was not sent.";
export const LOST_ATTEMPT_ERROR = "The worker sending this attempt stopped before recording it; whether the receiver got it is unknown.";

export type AttemptOptions = PolicyOptions & {
  /** Where a receiver may be: checked again at send time, since the URL may predate the rules. */
  urlRules: UrlRules;
  /** Who holds the lease while the request is in flight (the embedded worker passes its id). */
  workerId?: string;
  /** Injectable so tests of a hanging receiver need not wait the full 10 seconds. */
  timeoutMs?: number;
};

export type AttemptOutcome =
  | { outcome: "succeeded" | "dead"; attemptNumber: number }
  | { outcome: "retry"; attemptNumber: number; nextAttemptAt: Date; delayMs: number }
  | { outcome: "skipped"; reason: "not_found" | "not_pending" | "claimed_elsewhere" };

type AttemptLog = {
  signal: AttemptSignal;
  httpStatus: number | null;
  responseTimeMs: number;
  error: string | null;
  responseExcerpt: string | null;
};

/**
 * The only code that talks to a receiver. Sends the next attempt of a Pending delivery, logs it and
 * moves the delivery on (Succeeded, Failed = dead-lettered, or Pending with its next time).
 *
 * The attempt number is claimed with a compare-and-set on `attemptCount` before anything is sent,
 * so two callers (workers, Inngest runs) can never send the same attempt; the unique
 * (deliveryId, attemptNumber) of the log is a second guard. No transaction spans the HTTP call.
 */
export async function performAttempt(db: Db, deliveryId: string, options: AttemptOptions): Promise<AttemptOutcome> {
  const delivery = await db.delivery.findUnique({ where: { id: deliveryId }, include: { webhook: true } });
  if (!delivery) return { outcome: "skipped", reason: "not_found" };
  if (delivery.status !== "Pending") return { outcome: "skipped", reason: "not_pending" };

  const timeoutMs = options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const workerId = options.workerId ?? `direct:${randomUUID()}`;
  const attemptNumber = delivery.attemptCount + 1;
  const now = new Date();
  const claim = await db.delivery.updateMany({
    where: {
      id: deliveryId,
      status: "Pending",
      attemptCount: delivery.attemptCount,
      OR: [{ leasedUntil: null }, { leasedUntil: { lt: now } }, { leasedBy: workerId }],
    },
    data: {
      attemptCount: attemptNumber,
      leasedUntil: new Date(now.getTime() + timeoutMs + LEASE_MARGIN_MS),
      leasedBy: workerId,
    },
  });
  if (claim.count === 0) return { outcome: "skipped", reason: "claimed_elsewhere" };
  // Every attempt is logged together with its outcome; if the previous one has no entry, its worker
  // died mid-attempt. It still counts toward the limit, so the log shows it (a no-op otherwise).
  if (delivery.attemptCount > 0) await logLostAttempt(db, delivery);

  const log = await send(delivery, delivery.webhook, timeoutMs, options.urlRules);
  const step = nextStep(attemptNumber, log.signal, options);
  const outcome: AttemptOutcome =
    step.outcome === "retry"
      ? { outcome: "retry", attemptNumber, nextAttemptAt: new Date(Date.now() + step.delayMs), delayMs: step.delayMs }
      : { outcome: step.outcome, attemptNumber };
  const recorded = await record(db, delivery, attemptNumber, log, outcome);
  return recorded ? outcome : { outcome: "skipped", reason: "not_found" };
}

/** The entry a dead worker could not write; skipped if it did write it after all. */
async function logLostAttempt(db: Db, delivery: Delivery) {
  await db.deliveryAttempt.createMany({
    data: [
      {
        projectId: delivery.projectId,
        webhookId: delivery.webhookId,
        deliveryId: delivery.id,
        attemptNumber: delivery.attemptCount,
        eventType: delivery.eventName,
        httpStatus: null,
        responseTimeMs: 0,
        success: false,
        error: LOST_ATTEMPT_ERROR,
      },
    ],
    skipDuplicates: true,
  });
}

/**
 * Builds the signed request from the stored payload and sends it; every failure, including a target
 * refused before sending (disabled webhook, URL rules, unreadable secret), becomes a log entry.
 */
async function send(delivery: Delivery, webhook: Webhook, timeoutMs: number, rules: UrlRules): Promise<AttemptLog> {
  const refused = (message: string): AttemptLog => ({
    signal: { kind: "refused" },
    httpStatus: null,
    responseTimeMs: 0,
    error: message,
    responseExcerpt: null,
  });
  // Refused and dead-lettered, but logged: the log shows why nothing was sent, and a manual retry
  // after re-enabling sends it.
  if (!webhook.enabled) return refused(WEBHOOK_DISABLED_ERROR);
  // Checked again at send time: the URL may predate production mode, and DNS can change.
  const checked = checkWebhookUrl(webhook.url, rules);
  if ("violation" in checked) return refused(checked.violation.message);
  const secret = decryptSecret(webhook.secretEncrypted);
  if (secret === null) {
    return refused("The webhook secret cannot be decrypted (was REFERLOOP_ENCRYPTION_KEY changed?); set the secret again.");
  }
  const body = rewardPayloadBody(delivery.payload);
  const headers = deliveryHeaders({ deliveryId: delivery.id, timestampSeconds: Math.floor(Date.now() / 1000), body, secret });
  const result = await postWebhook(checked.url, headers, body, { timeoutMs, refusePrivate: rules.publicOnly });
  return toAttemptLog(result, timeoutMs);
}

function toAttemptLog(result: PostResult, timeoutMs: number): AttemptLog {
  const base = { responseTimeMs: result.elapsedMs, httpStatus: null, responseExcerpt: null };
  switch (result.kind) {
    case "timeout":
      return { ...base, signal: { kind: "timeout" }, error: `No complete response within ${timeoutMs} ms.` };
    case "network":
      return { ...base, signal: { kind: "network" }, error: truncate(`Network error: ${result.message}`) };
    case "refused":
      return { ...base, signal: { kind: "refused" }, error: truncate(result.message) };
    case "response": {
      const { status, headers } = result;
      const retryAfter = parseRetryAfter(headerValue(headers["retry-after"]), Date.now());
      const redirect = status >= 300 && status < 400;
      const error =
        status >= 200 && status < 300
          ? null
          : redirect
            ? truncate(`Redirect (${status}) to ${headerValue(headers.location) ?? "?"} not followed; update the webhook URL.`)
            : `HTTP ${status}`;
      return {
        signal: { kind: "response", status, ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }) },
        httpStatus: status,
        responseTimeMs: result.elapsedMs,
        error,
        responseExcerpt: storable(result.excerpt) || null,
      };
    }
  }
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
/** PostgreSQL text cannot hold NUL: one in a receiver's body would make the attempt unrecordable. */
const storable = (text: string) => text.replace(/\u0000/g, "");
const truncate = (text: string) => {
  const clean = storable(text);
  return clean.length > MAX_ERROR_LENGTH ? clean.slice(0, MAX_ERROR_LENGTH - 1) + "…" : clean;
};

/**
 * Writes the log entry and the delivery's new state in one short transaction. The state is only
 * written if nobody claimed a later attempt meanwhile (our lease could have expired); the entry is
 * written regardless, since the request did go out. False if the delivery was deleted in flight.
 */
async function record(
  db: Db,
  delivery: Delivery,
  attemptNumber: number,
  log: AttemptLog,
  outcome: Extract<AttemptOutcome, { attemptNumber: number }>,
): Promise<boolean> {
  const status = outcome.outcome === "succeeded" ? "Succeeded" : outcome.outcome === "dead" ? "Failed" : "Pending";
  return db.$transaction(async (tx) => {
    const updated = await tx.delivery.updateMany({
      where: { id: delivery.id, attemptCount: attemptNumber },
      data: {
        status,
        lastError: log.error,
        leasedUntil: null,
        leasedBy: null,
        ...(outcome.outcome === "retry" ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
      },
    });
    if (updated.count === 0 && !(await tx.delivery.findUnique({ where: { id: delivery.id }, select: { id: true } }))) {
      return false;
    }
    await tx.deliveryAttempt.create({
      data: {
        projectId: delivery.projectId,
        webhookId: delivery.webhookId,
        deliveryId: delivery.id,
        attemptNumber,
        eventType: delivery.eventName,
        httpStatus: log.httpStatus,
        responseTimeMs: log.responseTimeMs,
        success: status === "Succeeded",
        error: log.error,
        responseExcerpt: log.responseExcerpt,
      },
    });
    return true;
  });
}
