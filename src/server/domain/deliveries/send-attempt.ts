import type { UrlRules } from "@/server/config";
import { decryptSecret } from "@/server/domain/webhooks/webhook-secret";
import { checkWebhookUrl } from "@/server/domain/webhooks/webhook-url";
import type { ClaimedAttempt } from "./claim-attempts";
import { postWebhook, type PostResult } from "./post-webhook";
import { nextStep, parseRetryAfter, type AttemptSignal, type PolicyOptions } from "./retry-policy";
import { rewardPayloadBody } from "./reward-payload";
import { deliveryHeaders } from "./sign-delivery";

/** The spec's total budget for one attempt: connect, send, and read the answer. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_ERROR_LENGTH = 500;

export const WEBHOOK_DISABLED_ERROR = "The webhook is disabled; the delivery was not sent.";

export type SendOptions = PolicyOptions & {
  /** Where a receiver may be: checked again at send time, since the URL may predate the rules. */
  urlRules: UrlRules;
  /** Injectable so tests of a hanging receiver need not wait the full 10 seconds. */
  timeoutMs?: number;
};

/** What one attempt produced: its log entry and what happens to the delivery next. */
export type AttemptResult = {
  attempt: ClaimedAttempt;
  log: { httpStatus: number | null; responseTimeMs: number; error: string | null; responseExcerpt: string | null };
  next: { outcome: "succeeded" | "dead" } | { outcome: "retry"; nextAttemptAt: Date; delayMs: number };
};

/**
 * The only code that talks to a receiver: builds the signed request from the stored payload, sends
 * it within the budget, and judges the result with the retry policy. Every failure, including a
 * target refused before sending (disabled webhook, URL rules, unreadable secret), is a result to log.
 */
export async function sendAttempt(attempt: ClaimedAttempt, options: SendOptions): Promise<AttemptResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const { signal, ...log } = await send(attempt, timeoutMs, options.urlRules);
  const step = nextStep(attempt.attemptNumber, signal, options);
  const next = step.outcome === "retry" ? { ...step, nextAttemptAt: new Date(Date.now() + step.delayMs) } : step;
  return { attempt, log, next };
}

type Sent = AttemptResult["log"] & { signal: AttemptSignal };

async function send(attempt: ClaimedAttempt, timeoutMs: number, rules: UrlRules): Promise<Sent> {
  const refused = (message: string): Sent => ({ signal: { kind: "refused" }, httpStatus: null, responseTimeMs: 0, error: message, responseExcerpt: null });
  const { webhook } = attempt;
  // Refused and dead-lettered, but logged: the log shows why nothing was sent, and a manual retry
  // after re-enabling sends it.
  if (!webhook.enabled) return refused(WEBHOOK_DISABLED_ERROR);
  // Checked again at send time: the URL may predate the settings, and DNS can change.
  const checked = checkWebhookUrl(webhook.url, rules);
  if ("violation" in checked) return refused(checked.violation.message);
  const secret = decryptSecret(webhook.secretEncrypted);
  if (secret === null) {
    return refused("The webhook secret cannot be decrypted (was REFERLOOP_ENCRYPTION_KEY changed?); set the secret again.");
  }
  const body = rewardPayloadBody(attempt.payload);
  const headers = deliveryHeaders({ deliveryId: attempt.id, timestampSeconds: Math.floor(Date.now() / 1000), body, secret });
  const result = await postWebhook(checked.url, headers, body, { timeoutMs, rules });
  return toSent(result, timeoutMs);
}

function toSent(result: PostResult, timeoutMs: number): Sent {
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
