import type { Services } from "@/server/api/trpc/context";
import { problemType } from "@/server/http/problem";
import { answer, fromFetchRequest, toResponse, type ApiAnswer, type ApiRequest } from "@/server/http/api-exchange";
import { answerRest, problemAnswer } from "./handle-rest-request";
import { acceptedOrigin, anyProjectAllows, PREFLIGHT_HEADERS } from "./sdk-cors";

/**
 * The client-library endpoints (/api/v1/sdk/*): CORS around the one REST wrapper. A preflight is
 * answered here; every other request goes through answerRest (the SDK procedure kinds check
 * the key and the origin), and its answer gets the CORS headers when the procedure accepted the
 * request's origin for the key's project, whatever the status (a 400 or 404 must be readable by the
 * widget), and none otherwise, so a page on another origin reads nothing.
 */
export async function answerSdk(req: ApiRequest, services: Services): Promise<ApiAnswer> {
  if (req.method === "OPTIONS") return preflight(req, services);
  const res = await answerRest(req, services);
  const headers = res.headers;
  headers.append("vary", "Origin");
  const origin = acceptedOrigin(req.headers);
  if (origin) {
    headers.set("access-control-allow-origin", origin);
    headers.set("access-control-expose-headers", "Retry-After, RateLimit, RateLimit-Policy, X-Request-Id");
  }
  // The credential is a project key in a header of its own, not a bearer token.
  if (res.status === 401) headers.set("www-authenticate", 'ProjectKey realm="referloop"');
  return res;
}

/**
 * A preflight carries no key, so it cannot know the project: allowed for an origin that at least one
 * project allows (the real request is then checked against its own project), else a 403 problem
 * without CORS headers, which the browser reports as a CORS failure.
 */
async function preflight(req: ApiRequest, { db, credentials }: Services): Promise<ApiAnswer> {
  const origin = req.headers.get("origin");
  if (origin && (await anyProjectAllows(db, credentials, origin))) {
    return answer(204, { ...PREFLIGHT_HEADERS, "access-control-allow-origin": origin, vary: "Origin" });
  }
  const res = problemAnswer({
    type: problemType("forbidden"),
    title: "Not allowed.",
    status: 403,
    detail: origin
      ? `No project allows the origin ${origin}. Add it to the allowed origins in the project's settings.`
      : "A CORS preflight carries an Origin header; this request has none.",
    instance: new URL(req.url).pathname,
  });
  res.headers.append("vary", "Origin");
  return res;
}

/** answerSdk for a Fetch Request (the route file, tests). */
export const handleSdkRequest = async (req: Request, services: Services): Promise<Response> => toResponse(await answerSdk(fromFetchRequest(req), services));
