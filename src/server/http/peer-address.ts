import { clientIp, parseTrustedProxies, type TrustedProxies } from "@/server/http/client-ip";

/**
 * Next.js route handlers never see the TCP peer's address, and Next.js only fills in
 * `X-Forwarded-For` when the request has none, so a visitor who sends the header would choose the
 * address a click is recorded with. The front door (front-door.ts) writes the socket's address into a
 * header of its own before anything reads the request, replacing any value a client sent under that name.
 */
export const PEER_ADDRESS_HEADER = "x-referloop-peer-address";

/**
 * The client's address: the peer, or behind trusted proxies the first untrusted hop of
 * `X-Forwarded-For` (client-ip.ts). null when unknown.
 */
export function requestClientIp(headers: Headers, trustedProxies: TrustedProxies): string | null {
  return clientIp({ remoteAddress: headers.get(PEER_ADDRESS_HEADER), forwardedFor: headers.get("x-forwarded-for"), trustedProxies });
}

const LOOPBACK = parseTrustedProxies("loopback");

/**
 * The request came from this machine: the connection's peer, as the front door recorded it, is a loopback
 * address, and so is the client trusted proxies forwarded for (a proxy on this machine relays others).
 * False when the peer is unknown (the request did not come through the front door).
 */
export function fromLoopback(headers: Headers, trustedProxies: TrustedProxies): boolean {
  const peer = headers.get(PEER_ADDRESS_HEADER);
  const client = requestClientIp(headers, trustedProxies);
  return Boolean(peer && client && LOOPBACK.contains(peer) && LOOPBACK.contains(client));
}
