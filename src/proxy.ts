import { NextResponse, type NextRequest } from "next/server";
import { getConfig } from "@/server/config";
import { refuseAtApiEdge } from "@/server/http/api-edge";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/server/http/request-id";
import { pageSecurityHeaders } from "@/server/http/security-headers";

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
  if (request.nextUrl.pathname.startsWith("/api/")) {
    const refused = refuseAtApiEdge(request.method, request.nextUrl.pathname, requestId);
    if (refused) return new Response(refused.body, { status: refused.status, headers: refused.headers });
    const response = NextResponse.next({ request: { headers: requestHeaders } });
    response.headers.set(REQUEST_ID_HEADER, requestId);
    return response;
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const { devServer, productionMode } = getConfig();
  const headers = pageSecurityHeaders({ nonce, devServer, production: productionMode });
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  response.headers.set(REQUEST_ID_HEADER, requestId);
  return response;
}

export const config = {
  matcher: [
    // The API: request ids, and problems instead of Next's own 500s. Its other headers come from next.config.ts.
    { source: "/api/:path*" },
    {
      // Not the API, the widget's scripts (/sdk/), landing pages (/r/) or static files: those are
      // served to other origins and get their headers from next.config.ts.
      source: "/((?!api/|sdk/|r/|_next/static|_next/image|favicon.ico).*)",
      // Prefetches carry no HTML to protect, and a nonce in them would never be used.
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
