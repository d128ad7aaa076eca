import { NextResponse, type NextRequest } from "next/server";
import { getConfig } from "@/server/config";
import { pageSecurityHeaders } from "@/server/http/security-headers";

/**
 * Dashboard pages get a fresh CSP nonce per request: Next.js reads it from the request's
 * Content-Security-Policy header and puts it on the scripts and styles it renders, and the answer
 * carries it with the page's other security headers. The request id and the headers of every path
 * are set before this, by the front door (src/server/http/front-door.ts).
 */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const { devServer, hsts } = getConfig();
  const headers = pageSecurityHeaders({ nonce, devServer, hsts });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    {
      // Not the API, the widget's scripts (/sdk/), landing pages (/r/, which set their own CSP), app
      // icons (/icons/) or static files: those are served to other origins and carry their own headers.
      source: "/((?!api/|sdk/|r/|icons/|_next/static|_next/image|favicon.ico).*)",
      // Prefetches carry no HTML to protect, and a nonce in them would never be used.
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
