import type { LimitOutcome } from "./rate-limiter";

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-10, Structured Field lists):
 *   RateLimit-Policy: "api-key";q=600;w=60      the quota: q requests per w seconds
 *   RateLimit: "api-key";r=599;t=60             what is left: r requests, t seconds until the window ends
 * on every response the policies applied to, plus `Retry-After` (seconds) when one of them refused.
 */
export function rateLimitHeaders(outcomes: readonly LimitOutcome[]): Record<string, string> {
  if (!outcomes.length) return {};
  const headers: Record<string, string> = {
    "RateLimit-Policy": outcomes.map((o) => `"${o.policy}";q=${o.quota.points};w=${o.quota.windowSeconds}`).join(", "),
    RateLimit: outcomes.map((o) => `"${o.policy}";r=${o.remaining};t=${o.resetSeconds}`).join(", "),
  };
  const refused = outcomes.filter((o) => !o.allowed);
  if (refused.length) headers["Retry-After"] = String(Math.max(...refused.map((o) => o.resetSeconds)));
  return headers;
}
