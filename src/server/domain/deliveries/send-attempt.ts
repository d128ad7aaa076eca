import type { DeliveryFailure } from "@/lib/schemas/deliveries";
import type { UrlRules } from "@/server/config";
import type { Db } from "@/server/db/client";
import { decryptSecret } from "@/server/domain/webhooks/webhook-secret";
import { checkWebhookUrl } from "@/server/domain/webhooks/webhook-url";
import type { ClaimedAttempt } from "./claim-attempts";
import { postWebhook, type PostResult } from "./post-webhook";
import { nextStep, parseRetryAfter, type AttemptSignal, type PolicyOptions } from "./retry-policy";
import { deliveryBody } from "./reward-payload";
import { signedDeliveryHeaders, type SentRequest } from "./sign-delivery";
import type { WebhookAlert } from "./webhook-health";

/** The spec's total budget for one attempt: connect, send, and read the answer. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_ERROR_LENGTH = 500;

export const WEBHOOK_DISABLED_ERROR = "The webhook is disabled; the delivery was not sent.";
export const BODY_PURGED_ERROR = "The delivery's body was purged after its retention period; it cannot be sent.";

export type SendOptions = PolicyOptions & {
  /** Where a receiver may be: checked again at send time, since the URL may predate the rules. */
  urlRules: UrlRules;
  /** Injectable so tests of a hanging receiver need not wait the full 10 seconds. */
  timeoutMs?: number;
  /** The clock of schedules and of the webhook's health (failing for 5 days); injectable for tests. */
  now?: () => Date;
  /** Told, after the results are recorded, of webhooks that started failing or were disabled (the owners' e-mails). */
  alert?: (db: Db, alerts: WebhookAlert[]) => Promise<void>;
};

/** What one attempt produced: its log entry and what happens to the delivery next. */
export type AttemptResult = {
  attempt: ClaimedAttempt;
  log: {
    httpStatus: number | null;
    responseTimeMs: number;
    error: string | null;
    responseExcerpt: string | null;
    /** Null when nothing was sent (refused before sending). */
    request: SentRequest | null;
  };
  next: { outcome: "succeeded" } | { outcome: "dead"; failure: DeliveryFailure } | { outcome: "retry"; nextAttemptAt: Date; delayMs: number };
};

/**
 * The only code that talks to a receiver: builds the signed request from the stored payload, sends
 * it within the budget, and judges the result with the retry policy. Every failure, including a
 * target refused before sending (disabled webhook, URL rules, unreadable secret), is a result to log.
 */
export async function sendAttempt(attempt: ClaimedAttempt, options: SendOptions): Promise<AttemptResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());
  const { signal, ...log } = await send(attempt, timeoutMs, options.urlRules, now);
  const step = nextStep(attempt.attemptNumber, signal, attempt.test ? { ...options, maxAttempts: 1 } : options);
  const next = step.outcome === "retry" ? { ...step, nextAttemptAt: new Date(now().getTime() + step.delayMs) } : step;
  return { attempt, log, next };
}

type Sent = AttemptResult["log"] & { signal: AttemptSignal };

async function send(attempt: ClaimedAttempt, timeoutMs: number, rules: UrlRules, now: () => Date): Promise<Sent> {
  const refused = (message: string): Sent => ({
    signal: { kind: "refused" },
    httpStatus: null,
    responseTimeMs: 0,
    error: message,
    responseExcerpt: null,
    request: null,
  });
  const { webhook } = attempt;
  // Refused and dead-lettered, but logged: the log shows why nothing was sent, and a manual retry
  // after re-enabling sends it. A test event is the exception: it checks a receiver before re-enabling.
  if (!webhook.enabled && !attempt.test) return refused(WEBHOOK_DISABLED_ERROR);
  if (attempt.payload === null) return refused(BODY_PURGED_ERROR);
  // Checked again at send time: the URL may predate the settings, and DNS can change.
  const checked = checkWebhookUrl(webhook.url, rules);
  if ("violation" in checked) return refused(checked.violation.message);
  const secret = decryptSecret(webhook.secretEncrypted);
  if (secret === null) {
    return refused("The webhook secret cannot be decrypted (was REFERLOOP_ENCRYPTION_KEY changed?); set the secret again.");
  }
  // During a rotation's overlap: signed with both, so receivers holding either secret verify it.
  const previous = webhook.previousSecretEncrypted ? decryptSecret(webhook.previousSecretEncrypted) : null;
  const body = deliveryBody(attempt.eventType, attempt.payload);
  const timestampSeconds = Math.floor(now().getTime() / 1000);
  const { headers, signature } = signedDeliveryHeaders({ deliveryId: attempt.id, timestampSeconds, body, secret, previous, test: attempt.test, eventType: attempt.eventType });
  const result = await postWebhook(checked.url, headers, body, { timeoutMs, rules });
  return toSent(result, timeoutMs, { url: checked.url.href, timestampSeconds, signature });
}

function toSent(result: PostResult, timeoutMs: number, sent: SentRequest): Sent {
  // A target refused at connect time (a private address in production) was never sent anything.
  const request = result.kind === "refused" ? null : sent;
  const base = { responseTimeMs: result.elapsedMs, httpStatus: null, responseExcerpt: null, request };
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
        request,
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
