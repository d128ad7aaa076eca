import http from "node:http";
import https from "node:https";
import type { UrlRules } from "@/server/config";
import { guardedLookup, NonPublicTargetError } from "@/server/domain/webhooks/webhook-url";

/** Enough of a receiver's answer to show in the log without storing whatever it chose to send. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export type PostResult =
  | { kind: "response"; status: number; headers: http.IncomingHttpHeaders; excerpt: string; elapsedMs: number }
  | { kind: "timeout"; elapsedMs: number }
  | { kind: "network"; message: string; elapsedMs: number }
  | { kind: "refused"; message: string; elapsedMs: number };

/*
 * Connections are kept alive and reused per receiver: a backlog of deliveries to one receiver then
 * costs one TCP (and TLS) handshake, not one each. Idle sockets are closed after a few seconds, before
 * the usual server keep-alive timeouts (5 s in Node, 60 s in nginx) close them under us.
 */
const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 4_000, scheduling: "lifo" } as const;
const agents = { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) };

/**
 * One POST within a total time budget, with exactly `headers`. node:http rather than fetch, for two reasons: its `lookup`
 * hook checks the address actually connected to (fetch cannot, without the undici package), and it
 * never follows redirects. A request whose reused keep-alive socket turns out closed by the receiver
 * (reset before any answer) is sent once more on a fresh connection: deliveries are at-least-once and
 * receivers deduplicate on the delivery id.
 */
export async function postWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; rules: Pick<UrlRules, "publicOnly"> },
): Promise<PostResult> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const started = performance.now();
  const first = await post(url, headers, body, options.rules, signal, started);
  const result = first === STALE_SOCKET ? await post(url, headers, body, options.rules, signal, started) : first;
  if (result !== STALE_SOCKET) return result;
  return { kind: "network", message: "ECONNRESET: the receiver closed the connection", elapsedMs: Math.round(performance.now() - started) };
}

const STALE_SOCKET = Symbol("stale keep-alive socket");

function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  rules: Pick<UrlRules, "publicOnly">,
  signal: AbortSignal,
  started: number,
): Promise<PostResult | typeof STALE_SOCKET> {
  const elapsedMs = () => Math.round(performance.now() - started);
  const payload = Buffer.from(body, "utf8");
  const transport = url.protocol === "https:" ? https : http;

  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    /** `keep`: the response was read to its end, so the connection goes back to the pool for reuse. */
    const settle = (result: PostResult | typeof STALE_SOCKET, keep = false) => {
      if (settled) return;
      settled = true;
      resolve(result);
      if (!keep) request.destroy();
    };
    const failure = (error: Error): PostResult => {
      if (signal.aborted) return { kind: "timeout", elapsedMs: elapsedMs() };
      if (error instanceof NonPublicTargetError) return { kind: "refused", message: error.message, elapsedMs: elapsedMs() };
      const code = (error as NodeJS.ErrnoException).code;
      return { kind: "network", message: code ? `${code}: ${error.message}` : error.message, elapsedMs: elapsedMs() };
    };

    const request = transport.request(url, {
      method: "POST",
      // Sent as given, Content-Length included (deliveryHeaders): what is shown of a request is what went out.
      headers,
      signal,
      agent: agents[url.protocol as keyof typeof agents],
      // Always: link-local and metadata addresses are refused whatever is allowed.
      lookup: guardedLookup(rules),
    });
    request.on("error", (error) => {
      const code = (error as NodeJS.ErrnoException).code;
      const stale = request.reusedSocket && !answered && !signal.aborted && (code === "ECONNRESET" || code === "EPIPE");
      settle(stale ? STALE_SOCKET : failure(error));
    });
    request.on("response", (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (keep = false) =>
        settle(
          {
            kind: "response",
            status: response.statusCode ?? 0,
            headers: response.headers,
            excerpt: new TextDecoder().decode(Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES)),
            elapsedMs: elapsedMs(),
          },
          keep,
        );
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        // The status is what counts; stop reading once the excerpt is full.
        if (size >= RESPONSE_EXCERPT_BYTES) finish();
      });
      response.on("end", () => finish(true));
      // A body cut short by the budget or the receiver still leaves a status to judge by.
      response.on("close", () => finish());
      response.on("error", () => finish());
    });
    request.end(payload);
  });
}
