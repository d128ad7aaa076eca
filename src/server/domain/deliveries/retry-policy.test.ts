import { describe, expect, it } from "vitest";
import {
  backoffMs,
  classify,
  DEFAULT_RETRY_BASE_MS,
  MAX_ATTEMPTS,
  minBackoffMs,
  nextStep,
  parseRetryAfter,
  RETRY_AFTER_CAP_MS,
} from "./retry-policy";

const response = (status: number, retryAfterMs?: number) => ({ kind: "response" as const, status, retryAfterMs });

describe("classify", () => {
  it.each([200, 201, 202, 204, 299])("%i is a success", (status) => expect(classify(response(status))).toBe("success"));
  it.each([400, 401, 403, 404, 405, 410, 413, 415, 422])("%i is permanent", (status) =>
    expect(classify(response(status))).toBe("permanent"),
  );
  it.each([301, 302, 303, 307, 308])("redirect %i is permanent (not followed)", (status) =>
    expect(classify(response(status))).toBe("permanent"),
  );
  it.each([408, 409, 425, 429, 500, 502, 503, 504])("%i is retried", (status) =>
    expect(classify(response(status))).toBe("retryable"),
  );
  it("retries timeouts and network errors, never a refused target", () => {
    expect(classify({ kind: "timeout" })).toBe("retryable");
    expect(classify({ kind: "network" })).toBe("retryable");
    expect(classify({ kind: "refused" })).toBe("permanent");
  });
});

describe("backoff", () => {
  it("starts at 5 s and doubles", () => {
    expect(DEFAULT_RETRY_BASE_MS).toBe(5_000);
    expect([1, 2, 3, 4].map((n) => minBackoffMs(n, 5_000))).toEqual([5_000, 10_000, 20_000, 40_000]);
  });

  it("adds up to 25% jitter, never less than the minimum", () => {
    expect(backoffMs(2, 1_000, () => 0)).toBe(2_000);
    expect(backoffMs(2, 1_000, () => 0.999999)).toBe(2_500);
    const samples = Array.from({ length: 200 }, () => backoffMs(1, 1_000));
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...samples)).toBeLessThanOrEqual(1_250);
    expect(new Set(samples).size).toBeGreaterThan(1);
  });

  it("starts from DEFAULT_RETRY_BASE_MS unless given another base", () => {
    expect(minBackoffMs(1)).toBe(DEFAULT_RETRY_BASE_MS);
    expect(minBackoffMs(3, 25)).toBe(100);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it("reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("7", now)).toBe(7_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
  });
  it("ignores what it cannot read", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter("-5", now)).toBeUndefined();
    expect(parseRetryAfter("later", now)).toBeUndefined();
  });
});

describe("nextStep", () => {
  const options = { baseMs: 1_000, random: () => 0 };

  it("succeeds on 2xx and dead-letters permanent errors at once", () => {
    expect(nextStep(1, response(204), options)).toEqual({ outcome: "succeeded" });
    expect(nextStep(1, response(401), options)).toEqual({ outcome: "dead", failure: "dead_lettered" });
    expect(nextStep(1, response(302), options)).toEqual({ outcome: "dead", failure: "dead_lettered" });
  });

  it("retries with doubling delays until the fifth attempt, then dead-letters", () => {
    expect(MAX_ATTEMPTS).toBe(5);
    const delays = [1, 2, 3, 4].map((n) => nextStep(n, response(500), options));
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000].map((delayMs) => ({ outcome: "retry", delayMs })));
    expect(nextStep(5, response(500), options)).toEqual({ outcome: "dead", failure: "exhausted" });
    expect(nextStep(5, { kind: "timeout" }, options)).toEqual({ outcome: "dead", failure: "exhausted" });
  });

  it("sends a test event once: maxAttempts 1 ends it after its first failure", () => {
    expect(nextStep(1, response(500), { ...options, maxAttempts: 1 })).toEqual({ outcome: "dead", failure: "exhausted" });
    expect(nextStep(1, response(200), { ...options, maxAttempts: 1 })).toEqual({ outcome: "succeeded" });
  });

  it("honours Retry-After on 429 and 503 only, capped, never shortening the backoff", () => {
    expect(nextStep(1, response(429, 30_000), options)).toEqual({ outcome: "retry", delayMs: 30_000 });
    expect(nextStep(1, response(503, 30_000), options)).toEqual({ outcome: "retry", delayMs: 30_000 });
    expect(nextStep(1, response(500, 30_000), options)).toEqual({ outcome: "retry", delayMs: 1_000 });
    expect(nextStep(1, response(429, 10), options)).toEqual({ outcome: "retry", delayMs: 1_000 });
    expect(nextStep(1, response(429, 86_400_000), options)).toEqual({ outcome: "retry", delayMs: RETRY_AFTER_CAP_MS });
  });
});
