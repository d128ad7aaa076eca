import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { problemOf } from "@/server/http/problem";
import { getConfig } from "@/server/config";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/server/http/request-id";
import { requestClientIp } from "@/server/http/peer-address";
import { crossSiteRefusal } from "@/server/http/same-origin";
import { rateLimitHeaders } from "@/server/rate-limit/rate-limit-headers";
import { authOptions } from "./auth-options";
import { SIGN_IN_REFUSED } from "@/lib/schemas/accounts";
import { withSignInExchange, type SignInExchange } from "./sign-in-guard";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth's routes: a POST from another site is a 403 problem (same-origin.ts); the sign-in limits made visible: a sign-in the guard refused is a 429
 * problem with Retry-After (its body keeps next-auth's `url`, so `signIn()` in the browser still reads
 * the error), and every sign-in answer carries the RateLimit headers and `X-Request-Id`.
 */
export async function handleAuthRequest(req: NextRequest, ctx: RouteContext): Promise<Response> {
  // Sign-in and sign-out POSTs change state: from the app's own pages only (next-auth's CSRF token aside).
  const crossSite = req.method === "POST" ? crossSiteRefusal(req, getConfig()) : null;
  if (crossSite) {
    const requestId = requestIdFrom(req.headers);
    const problem = problemOf("forbidden", crossSite, { requestId });
    return new Response(JSON.stringify(problem), {
      status: problem.status,
      headers: { "content-type": "application/problem+json; charset=utf-8", "cache-control": "no-store", [REQUEST_ID_HEADER]: requestId },
    });
  }
  const exchange: SignInExchange = { ip: requestClientIp(req.headers, getConfig().trustedProxies), outcomes: [], refused: null };
  const response = await withSignInExchange(exchange, () => NextAuth(req, ctx, authOptions()) as Promise<Response>);
  const headers = new Headers(response.headers);
  headers.set(REQUEST_ID_HEADER, requestIdFrom(req.headers));
  for (const [name, value] of Object.entries(rateLimitHeaders(exchange.outcomes))) headers.set(name, value);
  if (!exchange.refused) return new Response(response.body, { status: response.status, headers });

  const seconds = exchange.refused.retryAfterSeconds;
  const url = new URL(`/api/auth/error?error=${SIGN_IN_REFUSED}`, req.url).toString();
  headers.set("retry-after", String(seconds));
  headers.set("content-type", "application/problem+json; charset=utf-8");
  headers.delete("location");
  headers.delete("content-length");
  const problem = { ...problemOf("rate-limited", `Too many sign-in attempts. Retry in ${seconds} s.`, { requestId: headers.get(REQUEST_ID_HEADER)! }), url };
  return new Response(JSON.stringify(problem), { status: problem.status, headers });
}
