import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { parseTrustedProxies } from "@/server/http/client-ip";
import { PEER_ADDRESS_HEADER, recordPeerAddress, requestClientIp } from "./peer-address";
import { installRequestHooks } from "./request-hooks";

/** What a request handler of a real HTTP server sees for a request sent with `headers`. */
async function seenBy(headers: Record<string, string>): Promise<IncomingHttpHeaders> {
  let seen: IncomingHttpHeaders = {};
  const server = createServer((req, res) => {
    seen = req.headers;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return seen;
}

const asHeaders = (seen: IncomingHttpHeaders) => new Headers(Object.entries(seen).map(([k, v]): [string, string] => [k, String(v)]));

describe("the peer address header", () => {
  it("carries the socket's address, whatever a client sends under its name", async () => {
    installRequestHooks([recordPeerAddress]);
    installRequestHooks([recordPeerAddress]); // installing again replaces the hooks, it does not stack them
    const seen = await seenBy({ [PEER_ADDRESS_HEADER]: "203.0.113.9", "x-forwarded-for": "198.51.100.7" });
    expect(seen[PEER_ADDRESS_HEADER]).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    // No proxy trusted: the forged X-Forwarded-For is ignored.
    expect(requestClientIp(asHeaders(seen), parseTrustedProxies(""))).toBe("127.0.0.1");
    // Behind a trusted proxy (here: loopback), its X-Forwarded-For names the client.
    expect(requestClientIp(asHeaders(seen), parseTrustedProxies("loopback"))).toBe("198.51.100.7");
    installRequestHooks([]);
  });

  it("is unknown without the hook's header: never a client's X-Forwarded-For", () => {
    expect(requestClientIp(new Headers({ "x-forwarded-for": "198.51.100.7" }), parseTrustedProxies("loopback"))).toBeNull();
  });
});
