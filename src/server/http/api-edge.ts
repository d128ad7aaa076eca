import { problemOf, type ProblemSlug } from "@/server/http/problem";
import { REQUEST_ID_HEADER } from "./request-id";

/** The methods any API route answers; the REST wrapper narrows them per path (405 with that path's Allow). */
export const API_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ALLOW = "GET, HEAD, POST, PUT, DELETE, OPTIONS";

export type EdgeAnswer = { status: number; headers: Record<string, string>; body: string };

/**
 * What Next.js would answer itself under /api/, with a 500 in text/plain, is answered as a problem
 * instead: a path whose percent-escapes do not decode to UTF-8 is a 400, a method no API route serves
 * a 405 with `Allow` (TRACE too, which a Fetch Request cannot carry). Anything else passes on (null).
 * The front door (front-door.ts) asks for every /api/ request; Node itself refuses CONNECT and
 * methods it does not know.
 */
export function refuseAtApiEdge(method: string, rawPathname: string, requestId: string): EdgeAnswer | null {
  if (!(API_METHODS as readonly string[]).includes(method)) {
    return problem("method-not-allowed", `${method} is not served here; allowed: ${ALLOW}.`, rawPathname, requestId, { allow: ALLOW });
  }
  try {
    decodeURIComponent(rawPathname);
  } catch {
    return problem("malformed-path", "The path has a malformed percent-escape or is not UTF-8 once decoded.", rawPathname, requestId);
  }
  return null;
}

function problem(slug: ProblemSlug, detail: string, instance: string, requestId: string, extra: Record<string, string> = {}): EdgeAnswer {
  const body = problemOf(slug, detail, { instance, requestId });
  return {
    status: body.status,
    headers: { "content-type": "application/problem+json; charset=utf-8", [REQUEST_ID_HEADER]: requestId, ...extra },
    body: JSON.stringify(body),
  };
}
