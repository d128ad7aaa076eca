import type { DeliveryFailure } from "@/lib/schemas/deliveries";

/**
 * The delivery schedule, as one pure function of the attempt's result: both schedulers (embedded
 * worker and Inngest) obey what it returns, so the schedule is the same whichever one runs.
 */

/** Initial attempt plus 4 retries (spec: Limits). */
export const MAX_ATTEMPTS = 5;
export const DEFAULT_RETRY_BASE_MS = 5_000;
/** Share of the backoff added as jitter, so receivers that failed together are not retried together. */
export const JITTER_RATIO = 0.25;
/** A receiver's Retry-After is honoured up to this, so one header cannot park a delivery for days. */
export const RETRY_AFTER_CAP_MS = 10 * 60_000;

/** Statuses that mean "this request will never be accepted as it is": retrying cannot help. */
export const PERMANENT_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404, 405, 410, 413, 415, 422]);

/** What came back from one attempt, before any judgement. */
export type AttemptSignal =
  | { kind: "response"; status: number; retryAfterMs?: number }
  | { kind: "timeout" }
  | { kind: "network" }
  /** The target was refused before sending (private address, plain http, unreadable secret). */
  | { kind: "refused" };

export type Verdict = "success" | "retryable" | "permanent";

export type NextStep =
  | { outcome: "succeeded" }
  | { outcome: "dead"; failure: DeliveryFailure }
  | { outcome: "retry"; delayMs: number };

/**
 * Redirects are permanent: following one would hand the secret (Bearer header) to another URL, and
 * the same URL keeps answering with the same redirect, so retrying only delays the signal that the
 * webhook URL needs fixing. Unlisted 4xx are retried: they are not known to be permanent.
 */
export function classify(signal: AttemptSignal): Verdict {
  if (signal.kind === "refused") return "permanent";
  if (signal.kind !== "response") return "retryable";
  const { status } = signal;
  if (status >= 200 && status < 300) return "success";
  if (status >= 300 && status < 400) return "permanent";
  if (PERMANENT_STATUSES.has(status)) return "permanent";
  return "retryable";
}

/** The least delay after failed attempt `attemptNumber` (1-based): base, 2x base, 4x base, ... */
export function minBackoffMs(attemptNumber: number, baseMs = DEFAULT_RETRY_BASE_MS): number {
  return baseMs * 2 ** (attemptNumber - 1);
}

/** The backoff with jitter: between the minimum and JITTER_RATIO above it. */
export function backoffMs(attemptNumber: number, baseMs = DEFAULT_RETRY_BASE_MS, random: () => number = Math.random): number {
  const min = minBackoffMs(attemptNumber, baseMs);
  return Math.round(min + min * JITTER_RATIO * random());
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `nowMs`; undefined if unusable. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // HTTP dates always name a day and month; this keeps Date.parse from reading "-5" as a year.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * `baseMs` is configurable (WEBHOOK_RETRY_BASE_MS), so tests run the real schedule in milliseconds.
 * `maxAttempts` is MAX_ATTEMPTS but for a test event, which is sent once (a manual retry sends it once more).
 */
export type PolicyOptions = { baseMs?: number; random?: () => number; maxAttempts?: number };

/**
 * What to do after attempt `attemptNumber` (the delivery's running count, manual retries included).
 * Retry-After is honoured on 429 and 503 only, where it means "come back later", never shortening
 * our own backoff and capped at RETRY_AFTER_CAP_MS.
 */
export function nextStep(attemptNumber: number, signal: AttemptSignal, options: PolicyOptions = {}): NextStep {
  const verdict = classify(signal);
  if (verdict === "success") return { outcome: "succeeded" };
  if (verdict === "permanent") return { outcome: "dead", failure: "dead_lettered" };
  if (attemptNumber >= (options.maxAttempts ?? MAX_ATTEMPTS)) return { outcome: "dead", failure: "exhausted" };
  const backoff = backoffMs(attemptNumber, options.baseMs, options.random);
  const honoursRetryAfter = signal.kind === "response" && (signal.status === 429 || signal.status === 503);
  const requested = honoursRetryAfter ? Math.min(signal.retryAfterMs ?? 0, RETRY_AFTER_CAP_MS) : 0;
  return { outcome: "retry", delayMs: Math.max(backoff, requested) };
}
