import { TRPCError } from "@trpc/server";
import type { InboundProvider } from "@/generated/prisma/enums";
import type { Services } from "@/server/api/trpc/context";
import { requestScope } from "@/server/api/trpc/context";
import { problemAnswer } from "@/server/api/rest/handle-rest-request";
import { isDatabaseUnavailable } from "@/server/db/database-unavailable";
import { DomainError } from "@/server/domain/errors";
import { findHookByToken, type FoundHook } from "@/server/domain/inbound-hooks/find-hook-by-token";
import { INBOUND_HOOKS_PREFIX } from "@/server/domain/inbound-hooks/hook-urls";
import type { InboundConversion } from "@/server/domain/inbound-hooks/inbound-conversion";
import { receiveInboundEvent } from "@/server/domain/inbound-hooks/receive-inbound-event";
import { readRevenueCatEvent } from "@/server/domain/inbound-hooks/revenuecat-event";
import { readStripeEvent } from "@/server/domain/inbound-hooks/stripe-event";
import { answer, type ApiAnswer, type ApiRequest } from "@/server/http/api-exchange";
import { problemFromError, problemOf, toTRPCError, type ProblemSlug } from "@/server/http/problem";
import { MAX_BODY_BYTES, readLimitedBody } from "@/server/http/request-body";
import { REQUEST_ID_HEADER } from "@/server/http/request-id";
import { logger } from "@/server/observability/logger";
import { rateLimitHeaders } from "@/server/rate-limit/rate-limit-headers";
import { verifyRevenueCat } from "./verify-revenuecat";
import { verifyStripe } from "./verify-stripe";

/** The rate-limit policy of the hooks' verified calls, per token (in the RateLimit headers). */
export const INBOUND_HOOK_POLICY = "inbound-hook";
/** The budget of calls whose credential failed, per token: a stranger holding the URL spends only this one. */
export const INBOUND_HOOK_UNVERIFIED_POLICY = "inbound-hook-unverified";

const PROVIDERS: Record<string, InboundProvider> = { stripe: "stripe", revenuecat: "revenuecat" };

class HookRefusal extends Error {
  constructor(
    readonly slug: ProblemSlug,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const NO_HOOK = "No inbound hook here: the token is unknown (it may have been rotated) or this provider is not set up for the project.";

/**
 * `POST /api/v1/hooks/{token}/stripe` and `POST /api/v1/hooks/{token}/revenuecat`, answered by the front
 * door on the raw body (Stripe signs the exact bytes). In order: the token and the provider's secret
 * (404 if either is missing, as if the hook did not exist), the body's size (413), the credential
 * (Stripe: its signature, 400; RevenueCat: the Authorization header, 401), the token's rate limit
 * (429), the JSON (400) and the fields read (400 naming them); nothing is recorded before all of them
 * pass. The credential comes before the quota, so whoever holds the URL without the secret cannot
 * spend the provider's calls: failed credentials count in a budget of their own (429 once spent).
 * Then 200 `{ received: true, outcome }`; a provider's retry of the same event gets the same and changes nothing.
 */
export async function answerInboundHook(req: ApiRequest, services: Services): Promise<ApiAnswer> {
  const url = new URL(req.url);
  const scope = requestScope(req.headers);
  const [token = "", segment = "", ...rest] = url.pathname.slice(INBOUND_HOOKS_PREFIX.length).split("/");
  const provider = rest.length === 0 ? PROVIDERS[segment] : undefined;
  let result: ApiAnswer;
  let limitHeaders: Record<string, string> = {};
  try {
    if (!provider || !token) throw new HookRefusal("not-found", `No endpoint at ${url.pathname}.`);
    if (req.method !== "POST") throw new HookRefusal("method-not-allowed", `${req.method} is not allowed here; allowed: POST.`, { allow: "POST" });
    const hook = await findHookByToken(services.db, safeDecode(token), provider);
    if (!hook) throw new HookRefusal("not-found", NO_HOOK);
    const verified = await verify(req, services, hook, provider);
    limitHeaders = await limit(services, hook);
    result = json(200, await receiveInboundEvent({ db: services.db, outbox: services.scheduler }, hook, readEvent(verified)));
  } catch (error) {
    result = refusalAnswer(error, scope.requestId, url.pathname, provider);
  }
  // Every answer once the token is known says what is left of its quota.
  for (const [name, value] of Object.entries(limitHeaders)) result.headers.set(name, value);
  result.headers.set(REQUEST_ID_HEADER, scope.requestId);
  result.headers.set("cache-control", "no-store");
  // Named by template: the path carries the token.
  result.route = provider ? `${INBOUND_HOOKS_PREFIX}{token}/${segment}` : `${INBOUND_HOOKS_PREFIX}*`;
  return result;
}

type Verified = { provider: "stripe"; body: unknown } | { provider: "revenuecat"; raw: Uint8Array };

/** The body, once its credential holds; a failed credential spends the unverified budget, never the token's quota. */
async function verify(req: ApiRequest, services: Services, hook: FoundHook, provider: InboundProvider): Promise<Verified> {
  const raw = await readLimitedBody(req, () => new HookRefusal("payload-too-large", `The body exceeds ${MAX_BODY_BYTES / 1024} KiB.`));
  if (provider === "stripe") {
    const verified = verifyStripe(raw, req.headers.get("stripe-signature"), hook.secret);
    if (!verified.ok && verified.why === "signature") return refuseUnverified(services, hook, new HookRefusal("invalid-signature", `Stripe-Signature: ${verified.message}`));
    // The signature held over bytes that are not JSON: the provider's own call, counted as one.
    if (!verified.ok) return { provider, body: undefined };
    return { provider, body: verified.body };
  }
  if (!verifyRevenueCat(req.headers.get("authorization"), hook.secret)) {
    return refuseUnverified(
      services,
      hook,
      new HookRefusal("unauthorized", "The Authorization header is missing or is not the value configured for this project's RevenueCat hook."),
    );
  }
  return { provider, raw };
}

function readEvent(verified: Verified): InboundConversion {
  if (verified.provider === "revenuecat") return readRevenueCatEvent(parseJson(verified.raw));
  if (verified.body === undefined) throw new HookRefusal("malformed-json", "The body is not valid JSON.");
  return readStripeEvent(verified.body);
}

async function refuseUnverified({ limiter, config }: Services, hook: FoundHook, refusal: HookRefusal): Promise<never> {
  const quota = { points: config.rateLimits.inboundHookPerMinute, windowSeconds: 60 };
  const outcome = await limiter.consume(INBOUND_HOOK_UNVERIFIED_POLICY, hook.tokenHash, quota);
  if (outcome && !outcome.allowed) {
    const headers = rateLimitHeaders([outcome]);
    throw new HookRefusal("rate-limited", `Too many calls with a failed credential for this inbound hook token: the limit is ${quota.points} per minute. Retry in ${outcome.resetSeconds} s.`, headers);
  }
  throw refusal;
}

/** One quota per token for both hooks; over it a 429 with Retry-After (providers retry later). */
async function limit({ limiter, config }: Services, hook: FoundHook): Promise<Record<string, string>> {
  const quota = { points: config.rateLimits.inboundHookPerMinute, windowSeconds: 60 };
  const outcome = await limiter.consume(INBOUND_HOOK_POLICY, hook.tokenHash, quota);
  const headers = rateLimitHeaders(outcome ? [outcome] : []);
  if (outcome && !outcome.allowed) {
    throw new HookRefusal("rate-limited", `Too many requests for this inbound hook token: the limit is ${quota.points} per minute. Retry in ${outcome.resetSeconds} s.`, headers);
  }
  return headers;
}

function parseJson(raw: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
  } catch {
    throw new HookRefusal("malformed-json", "The body is not valid JSON.");
  }
}

const safeDecode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const json = (status: number, body: unknown) => answer(status, { "content-type": "application/json; charset=utf-8" }, JSON.stringify(body));

function refusalAnswer(error: unknown, requestId: string, instance: string, provider: InboundProvider | undefined): ApiAnswer {
  if (error instanceof HookRefusal) {
    const res = problemAnswer(problemOf(error.slug, error.message, { instance, requestId }));
    for (const [name, value] of Object.entries(error.headers)) res.headers.set(name, value);
    if (error.slug === "unauthorized") res.headers.set("www-authenticate", 'Custom realm="referloop-revenuecat"');
    return res;
  }
  const trpcError = error instanceof DomainError ? toTRPCError(error) : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error });
  const problem = problemFromError(trpcError, requestId);
  if (problem.status >= 500) {
    if (isDatabaseUnavailable(error)) logger().warn({ route: `${INBOUND_HOOKS_PREFIX}{token}/${provider}`, requestId }, "the database is unavailable");
    else logger().error({ err: error, route: `${INBOUND_HOOKS_PREFIX}{token}/${provider}`, requestId }, "inbound hook failed");
  }
  return problemAnswer({ ...problem, instance });
}

/** The front door's route for both hooks (before the REST API's `/api/v1/`, which would answer 404). */
export const inboundHookRoute = (services: Services) => ({ path: INBOUND_HOOKS_PREFIX, handle: (request: ApiRequest) => answerInboundHook(request, services) });
