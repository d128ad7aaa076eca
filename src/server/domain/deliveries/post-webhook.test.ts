import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { postWebhook } from "./post-webhook";

const servers: net.Server[] = [];
const sockets = new Set<net.Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/**
 * A raw HTTP/1.1 receiver that keeps connections alive, but resets a connection when a second
 * request arrives on it: what a receiver that closed an idle keep-alive socket looks like to a
 * client that reuses it. Counts the requests it saw.
 */
async function resettingReceiver() {
  const seen = { requests: 0, connections: 0 };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    seen.connections++;
    let served = 0;
    socket.on("data", () => {
      seen.requests++;
      if (served++ > 0) return socket.resetAndDestroy();
      socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`), seen };
}

describe("postWebhook", () => {
  it("reuses a kept-alive connection, and sends again on a fresh one when the reused socket was reset", async () => {
    const { url, seen } = await resettingReceiver();
    const send = () => postWebhook(url, { "Content-Type": "application/json" }, "{}", { timeoutMs: 2_000, rules: { publicOnly: false } });
    expect(await send()).toMatchObject({ kind: "response", status: 200 });
    // The first connection went back to the pool; the second POST reuses it, is reset, and goes again.
    expect(await send()).toMatchObject({ kind: "response", status: 200 });
    expect(seen).toEqual({ requests: 3, connections: 2 });
  });
});
