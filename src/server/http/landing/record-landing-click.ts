import { buildClickFingerprint } from "@/server/domain/attribution/build-fingerprint";
import { clickPayloadSchema } from "@/lib/schemas/attribution";
import { recordLinkClick } from "@/server/domain/attribution/record-link-click";
import { answer, type ApiAnswer, type ApiRequest } from "@/server/http/api-exchange";
import { requestClientIp } from "@/server/http/peer-address";
import { problemOf, type ProblemSlug } from "@/server/http/problem";
import { REQUEST_ID_HEADER } from "@/server/http/request-id";
import { rateLimitHeaders } from "@/server/rate-limit/rate-limit-headers";
import { readLandingParams } from "./landing-params";
import type { LandingServices } from "./serve-landing-page";

/** The page's beacon is a few hundred bytes; reading stops past this (413). */
export const MAX_CLICK_BODY = 4 * 1024;

/** The RateLimit policy of the click beacon: per client IP, RATE_LIMIT_LANDING_CLICKS_PER_IP_PER_MINUTE. */
export const LANDING_CLICK_POLICY = "landing-click";

const NO_STORE = { "cache-control": "no-store" };

function problem(request: ApiRequest, slug: ProblemSlug, detail: string, headers: Record<string, string> = {}): ApiAnswer {
  const requestId = request.headers.get(REQUEST_ID_HEADER) ?? undefined;
  const body = problemOf(slug, detail, { instance: new URL(request.url).pathname, ...(requestId ? { requestId } : {}) });
  return answer(body.status, { ...NO_STORE, ...headers, "content-type": "application/problem+json; charset=utf-8" }, JSON.stringify(body));
}

/**
 * `POST /r/{projectId}/{code}/click[?rewardEventName=...]`: the landing page's script records the
 * click with the device's fingerprint (clickPayloadSchema, JSON sent as text/plain by sendBeacon).
 * The OS comes from the User-Agent, the address from the connection (trusted proxies' forwarded
 * hops only). Counted per client IP before anything is read (429 with Retry-After over the quota);
 * the body is read up to MAX_CLICK_BODY and no further (413), so a large or endless body costs
 * nothing. One insert. 204 recorded (or already recorded); problems: 404 no such referral, 400 a bad
 * body.
 */
export async function recordLandingClick(request: ApiRequest, services: LandingServices, path: { projectId: string; code: string }, now = new Date()): Promise<ApiAnswer> {
  const ip = requestClientIp(request.headers, services.config.trustedProxies);
  const quota = { points: services.config.rateLimits.landingClicksPerIpPerMinute, windowSeconds: 60 };
  const outcome = ip ? await services.limiter.consume(LANDING_CLICK_POLICY, ip, quota) : null;
  const limitHeaders = rateLimitHeaders(outcome ? [outcome] : []);
  if (outcome && !outcome.allowed) {
    return problem(request, "rate-limited", `Too many clicks from your address: the limit is ${quota.points} per minute. Retry in ${outcome.resetSeconds} s.`, limitHeaders);
  }
  const params = readLandingParams(path, new URL(request.url));
  if (!params) return problem(request, "not-found", "No such referral.");
  const tooLarge = () => problem(request, "payload-too-large", `A click is at most ${MAX_CLICK_BODY} bytes.`);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_CLICK_BODY) return tooLarge();
  const body = await request.readBody(MAX_CLICK_BODY);
  if (!body) return tooLarge();
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return problem(request, "malformed-json", "The body is not JSON.");
  }
  const parsed = clickPayloadSchema.safeParse(json);
  if (!parsed.success) return problem(request, "validation", "The body is not a click.");
  const { clickId, ...payload } = parsed.data;
  const userAgent = request.headers.get("user-agent");
  const fingerprint = buildClickFingerprint({ userAgent, ip, payload, createdAt: now });
  const recorded = await recordLinkClick(services.db, { clickId, ...params, fingerprint, userAgent });
  if (recorded === "unknown_referral") return problem(request, "not-found", "No such referral.");
  return answer(204, { ...NO_STORE, ...limitHeaders });
}
