/*
 * The response headers of dashboard pages, set by src/proxy.ts on every page request. The API, the
 * widget's scripts (/sdk/) and landing pages (/r/) are served to other origins and get only
 * `nosniff`, plus a no-content CSP on the API (PATH_HEADERS).
 */

export type PageHeaderOptions = {
  /** A fresh random value per request; Next.js puts it on its own scripts and styles. */
  nonce: string;
  /** `next dev`: React needs eval for its debugging aids, and the dev server injects styles inline. */
  devServer: boolean;
  /** https is expected (config.hsts, on unless REFERLOOP_DISABLE_HSTS): HSTS, and requests upgraded. */
  hsts: boolean;
};

/**
 * A strict, nonce-based policy: only scripts carrying this response's nonce run, and what they load
 * ('strict-dynamic'), so an injected <script> or inline handler does not. Tailwind's CSS is a file
 * ('self'); React's `style` attributes (the campaign preview's colours) need style-src-attr, which
 * cannot run code. frame-ancestors 'none' stops clickjacking of the delete and rotate buttons.
 */
export function contentSecurityPolicy({ nonce, devServer, hsts }: PageHeaderOptions): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${devServer ? " 'unsafe-eval'" : ""}`,
    devServer ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(hsts ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

export function pageSecurityHeaders(options: PageHeaderOptions): { "Content-Security-Policy": string } & Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(options),
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
    // Two years, the preload list's minimum; only where the dashboard is served over https.
    ...(options.hsts ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

/** JSON and scripts: nothing to render, so nothing may load or frame it. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Headers every response under a path prefix carries, whoever answers it: next.config.ts gives them to
 * what Next.js serves, direct-routes.ts to what it serves itself.
 */
export const PATH_HEADERS: { prefix: string; headers: Record<string, string> }[] = [
  { prefix: "/", headers: { "X-Content-Type-Options": "nosniff" } },
  { prefix: "/api/", headers: { "Content-Security-Policy": API_CONTENT_SECURITY_POLICY } },
];
