import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedRequest = { path: string; headers: http.IncomingHttpHeaders; body: string; at: number };
export type Reply = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | "hang";
/** Decides the answer to the n-th request (1-based) this receiver has seen. */
export type Responder = (n: number, request: ReceivedRequest) => Reply;

/** A real HTTP receiver on 127.0.0.1 (random port) that records what it gets and answers as told. */
export async function startReceiver(responder: Responder = () => ({ status: 200 })) {
  const requests: ReceivedRequest[] = [];
  let respond = responder;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const received = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      requests.push(received);
      const reply = respond(requests.length, received);
      if (reply === "hang") return;
      setTimeout(() => {
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body ?? "");
      }, reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    origin: `http://127.0.0.1:${port}`,
    requests,
    respondWith(next: Responder) {
      respond = next;
    },
    /** Resolves once `count` requests arrived; fails after `timeoutMs`. */
    async waitForRequests(count: number, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`Expected ${count} requests, got ${requests.length}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return requests;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
