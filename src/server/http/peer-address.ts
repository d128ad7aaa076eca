import http from "node:http";
import https from "node:https";
import { clientIp, type TrustedProxies } from "@/server/domain/attribution/client-ip";

/**
 * Next.js route handlers never see the TCP peer's address, and Next.js only fills in
 * `X-Forwarded-For` when the request has none, so a visitor who sends the header chooses the address
 * a click is recorded with. This hook, installed once per server process (instrumentation), writes
 * the socket's address into a header of its own before Next.js reads the request, replacing any
 * value a client sent under that name.
 */
export const PEER_ADDRESS_HEADER = "x-referloop-peer-address";

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
const INSTALLED = Symbol.for("referloop.peerAddressHeader");

export function installPeerAddressHeader(): void {
  for (const Server of [http.Server, https.Server]) {
    const proto = Server.prototype as unknown as { emit: Emit; [INSTALLED]?: true };
    if (proto[INSTALLED]) continue;
    const emit = proto.emit;
    proto.emit = function (event, ...args) {
      if (event === "request") {
        const request = args[0] as http.IncomingMessage;
        request.headers[PEER_ADDRESS_HEADER] = request.socket?.remoteAddress ?? "";
      }
      return emit.call(this, event, ...args);
    };
    proto[INSTALLED] = true;
  }
}

/**
 * The client's address for a request that went through the hook: the peer, or behind trusted proxies
 * the first untrusted hop of `X-Forwarded-For` (client-ip.ts). null when unknown.
 */
export function requestClientIp(headers: Headers, trustedProxies: TrustedProxies): string | null {
  return clientIp({ remoteAddress: headers.get(PEER_ADDRESS_HEADER), forwardedFor: headers.get("x-forwarded-for"), trustedProxies });
}
