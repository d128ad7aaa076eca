import { clientIp, type TrustedProxies } from "@/server/domain/attribution/client-ip";

/**
 * The client address of a request as a route handler sees it. Next.js does not hand handlers the
 * socket: it writes the peer's address into `X-Forwarded-For` itself, but only when the request came
 * without one. So the header's last hop is the nearest party we can name (Next's own peer, or the hop
 * our reverse proxy appended); with TRUSTED_PROXIES set, hops from our proxies are walked past.
 * Without trusted proxies a client connecting directly can write the header itself: run behind a
 * proxy that sets it when per-IP limits must hold.
 */
export function requestClientIp(headers: Headers, trustedProxies: TrustedProxies): string | null {
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  const nearest = hops.pop();
  if (!nearest) return null;
  return clientIp({ remoteAddress: nearest, forwardedFor: hops.join(","), trustedProxies });
}
