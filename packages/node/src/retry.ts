/** Statuses worth another attempt: timeouts, rate limits, a server or gateway away for a moment. */
const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);
/** Safe methods: repeating them changes nothing (RFC 9110). */
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
/** Retry-After above this is not waited for: the answer goes to the caller. */
const MAX_WAIT_MS = 60_000;

export type RetryOptions = {
  /** Further attempts after the first, default 2. */
  retries: number;
  /** The first backoff, doubled each attempt (with jitter), default 500 ms. */
  retryBaseMs: number;
};

/** A request may be repeated when it is safe, or a POST the server dedupes by its Idempotency-Key. */
export const mayRetry = (request: Request) => SAFE.has(request.method) || (request.method === "POST" && request.headers.has("Idempotency-Key"));

/** How long to wait before attempt `attempt + 1`: the server's Retry-After if it gave one, else jittered backoff. */
function backoff(attempt: number, retryAfter: string | null, baseMs: number): number {
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  return Math.round(baseMs * 2 ** attempt * (0.5 + Math.random() / 2));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `fetch` with retries of network errors and transient statuses, for the requests that may be repeated. */
export function retryingFetch(fetchImpl: typeof fetch, { retries, retryBaseMs }: RetryOptions) {
  return async (request: Request): Promise<Response> => {
    const repeatable = mayRetry(request);
    for (let attempt = 0; ; attempt++) {
      const last = !repeatable || attempt >= retries;
      // Each attempt sends a copy: a body can be read once.
      let wait: number;
      try {
        const response = await fetchImpl(last ? request : request.clone());
        if (last || !TRANSIENT.has(response.status)) return response;
        wait = backoff(attempt, response.headers.get("Retry-After"), retryBaseMs);
        if (wait > MAX_WAIT_MS) return response;
        await response.body?.cancel();
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        wait = backoff(attempt, null, retryBaseMs);
      }
      await sleep(wait);
    }
  };
}
