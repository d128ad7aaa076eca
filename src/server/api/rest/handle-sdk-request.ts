import type { Services } from "@/server/api/trpc/context";
import { problemType } from "@/server/http/problem";
import { answer, fromFetchRequest, toResponse, type ApiAnswer, type ApiRequest } from "@/server/http/api-exchange";
import { answerRest, problemAnswer } from "./handle-rest-request";
import { anyProjectAllows, PREFLIGHT_HEADERS } from "./sdk-cors";

/**
 * The client-library endpoints (/api/v1/sdk/*): CORS around the one REST wrapper. A preflight is
 * answered here; every other request goes through answerRest, where the SDK procedure kinds check the
 * key and the origin and, when the key's project allows that origin, add the CORS headers to the
 * answer whatever its status; a page on another origin reads nothing.
 */
export async function answerSdk(req: ApiRequest, services: Services): Promise<ApiAnswer> {
  if (req.method === "OPTIONS") return preflight(req, services);
  const res = await answerRest(req, services);
  const headers = res.headers;
  headers.append("vary", "Origin");
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
