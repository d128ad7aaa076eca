import type { Config } from "@/server/config";

const first = (value: string | null) => value?.split(",")[0]?.trim().toLowerCase() || null;
/** host[:port] without the scheme's default port, so `Origin: https://a.example` matches `Host: a.example:443`. */
const normalHost = (host: string) => host.toLowerCase().replace(/:(80|443)$/, "");

/** The request a check looks at: its URL (Next.js builds it on the Host header) and headers. */
export type ChangeRequest = { url: string; headers: Headers };

/**
 * The hosts the dashboard is reached at: the one this request came to (a proxy's X-Forwarded-Host,
 * Host, the URL built on it: a cross-site form can set none of them) and the configured public URL's.
 */
function ownHosts({ url, headers }: ChangeRequest, config: Pick<Config, "publicUrl">): Set<string> {
  const hosts = new Set<string>();
  for (const host of [first(headers.get("x-forwarded-host")), first(headers.get("host")), URL.canParse(url) ? new URL(url).host : null]) if (host) hosts.add(normalHost(host));
  if (config.publicUrl) hosts.add(normalHost(new URL(config.publicUrl).host));
  return hosts;
}

/**
 * Why a state-changing dashboard request (a tRPC mutation, next-auth's POSTs) must be refused as
 * cross-site, or null when it may pass: the browser says another site made it (`Sec-Fetch-Site:
 * cross-site`), or its `Origin` is not the app's own (`null`, from sandboxes and redirects, included).
 * A request with neither header (a script on a server, an old browser) passes this check; the tRPC
 * endpoint then also requires `application/json`, which no cross-site page can send without a CORS
 * preflight that this app never grants.
 */
export function crossSiteRefusal(request: ChangeRequest, config: Pick<Config, "publicUrl">): string | null {
  const { headers } = request;
  if (headers.get("sec-fetch-site")?.toLowerCase() === "cross-site") return "This request came from another site (Sec-Fetch-Site: cross-site); the dashboard accepts changes only from its own pages.";
  const origin = headers.get("origin");
  if (origin === null) return null;
  const host = URL.canParse(origin) && origin !== "null" ? normalHost(new URL(origin).host) : null;
  if (host && ownHosts(request, config).has(host)) return null;
  return `This request came from another origin (${origin.slice(0, 200)}); the dashboard accepts changes only from its own pages.`;
}

/** The request states its origin as this app's own: `Origin` present and ours, or `Sec-Fetch-Site: same-origin`. */
export function provenSameOrigin(request: ChangeRequest, config: Pick<Config, "publicUrl">): boolean {
  if (request.headers.get("sec-fetch-site")?.toLowerCase() === "same-origin") return true;
  return request.headers.get("origin") !== null && crossSiteRefusal(request, config) === null;
}
