import { NextResponse, type NextRequest } from "next/server";
import { getConfig } from "@/server/config";
import { refuseAtApiEdge } from "@/server/http/api-edge";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/server/http/request-id";
import { pageSecurityHeaders } from "@/server/http/security-headers";

/** The API, the widget's scripts and landing pages: a request id, but not the dashboard's page headers (next.config.ts). */
const SERVED_TO_OTHER_ORIGINS = ["/api/", "/sdk/", "/r/"];

/**
 * Runs before routing. Every request it sees gets its `X-Request-Id` (the caller's, if usable, else a
 * new one), passed on to the handler and sent back. Under /api/ it answers what Next.js would turn
 * into a 500 (malformed escapes, unknown methods) as problems. Dashboard pages get a fresh CSP nonce
 * per request: Next.js reads it from the request's Content-Security-Policy header and puts it on the
 * scripts and styles it renders.
 */
export function proxy(request: NextRequest) {
  const requestId = requestIdFrom(request.headers);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(REQUEST_ID_HEADER, requestId);
  const { pathname } = request.nextUrl;
  if (SERVED_TO_OTHER_ORIGINS.some((prefix) => pathname.startsWith(prefix))) {
    const refused = pathname.startsWith("/api/") ? refuseAtApiEdge(request.method, pathname, requestId) : null;
    if (refused) return new Response(refused.body, { status: refused.status, headers: refused.headers });
    const response = NextResponse.next({ request: { headers: requestHeaders } });
    response.headers.set(REQUEST_ID_HEADER, requestId);
    return response;
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const { devServer, hsts } = getConfig();
  const headers = pageSecurityHeaders({ nonce, devServer, hsts });
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  response.headers.set(REQUEST_ID_HEADER, requestId);
  return response;
}

export const config = {
  matcher: [
    // The API (request ids, and problems instead of Next's own 500s), the widget's scripts and landing
    // pages (request ids). Their other headers come from next.config.ts.
    { source: "/api/:path*" },
    { source: "/sdk/:path*" },
    { source: "/r/:path*" },
    {
      // Not the API, the widget's scripts (/sdk/), landing pages (/r/, which set their own CSP), app
      // icons (/icons/) or static files: those are served to other origins and get their headers from
      // next.config.ts or their route.
      source: "/((?!api/|sdk/|r/|icons/|_next/static|_next/image|favicon.ico).*)",
      // Prefetches carry no HTML to protect, and a nonce in them would never be used.
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
