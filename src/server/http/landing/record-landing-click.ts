import { buildClickFingerprint } from "@/server/domain/attribution/build-fingerprint";
import { clickPayloadSchema } from "@/lib/schemas/attribution";
import { recordLinkClick } from "@/server/domain/attribution/record-link-click";
import { requestClientIp } from "@/server/http/peer-address";
import { readLandingParams } from "./landing-params";
import type { LandingServices } from "./serve-landing-page";

/** The page's beacon is a few hundred bytes. */
const MAX_CLICK_BODY = 4 * 1024;

const answer = (status: number, text?: string) =>
  new Response(text ?? null, { status, headers: { "cache-control": "no-store", ...(text ? { "content-type": "text/plain; charset=utf-8" } : {}) } });

/**
 * `POST /r/{projectId}/{code}/click[?rewardEventName=...]`: the landing page's script records the
 * click with the device's fingerprint (clickPayloadSchema, JSON sent as text/plain by sendBeacon).
 * The OS comes from the User-Agent, the address from the connection (trusted proxies' forwarded
 * hops only). One insert. 204 recorded (or already recorded), 404 no such referral, 400 a bad body.
 */
export async function recordLandingClick(request: Request, services: LandingServices, path: { projectId: string; code: string }, now = new Date()): Promise<Response> {
  const params = readLandingParams(path, new URL(request.url));
  if (!params) return answer(404, "No such referral.\n");
  if (Number(request.headers.get("content-length") ?? 0) > MAX_CLICK_BODY) return answer(413, "The body is too large.\n");
  const text = await request.text();
  if (text.length > MAX_CLICK_BODY) return answer(413, "The body is too large.\n");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return answer(400, "The body is not JSON.\n");
  }
  const parsed = clickPayloadSchema.safeParse(json);
  if (!parsed.success) return answer(400, "The body is not a click.\n");
  const { clickId, ...payload } = parsed.data;
  const userAgent = request.headers.get("user-agent");
  const fingerprint = buildClickFingerprint({ userAgent, ip: requestClientIp(request.headers, services.config.trustedProxies), payload, createdAt: now });
  const outcome = await recordLinkClick(services.db, { clickId, ...params, fingerprint, userAgent });
  return outcome === "unknown_referral" ? answer(404, "No such referral.\n") : answer(204);
}
