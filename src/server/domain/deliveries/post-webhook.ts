import http from "node:http";
import https from "node:https";
import { guardedLookup, NonPublicTargetError } from "@/server/domain/webhooks/webhook-url";

/** Enough of a receiver's answer to show in the log without storing whatever it chose to send. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export type PostResult =
  | { kind: "response"; status: number; headers: http.IncomingHttpHeaders; excerpt: string; elapsedMs: number }
  | { kind: "timeout"; elapsedMs: number }
  | { kind: "network"; message: string; elapsedMs: number }
  | { kind: "refused"; message: string; elapsedMs: number };

/**
 * One POST within a total time budget. node:http rather than fetch, for two reasons: its `lookup`
 * hook checks the address actually connected to (fetch cannot, without the undici package), and it
 * never follows redirects. No connection reuse: a pooled socket a receiver has just closed would turn
 * into a spurious network error, and webhook traffic per host is low.
 */
export function postWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; refusePrivate: boolean },
): Promise<PostResult> {
  const started = performance.now();
  const elapsedMs = () => Math.round(performance.now() - started);
  const payload = Buffer.from(body, "utf8");
  const signal = AbortSignal.timeout(options.timeoutMs);
  const transport = url.protocol === "https:" ? https : http;

  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const settle = (result: PostResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
      request.destroy();
    };
    const failure = (error: Error): PostResult => {
      if (signal.aborted) return { kind: "timeout", elapsedMs: elapsedMs() };
      if (error instanceof NonPublicTargetError) return { kind: "refused", message: error.message, elapsedMs: elapsedMs() };
      const code = (error as NodeJS.ErrnoException).code;
      return { kind: "network", message: code ? `${code}: ${error.message}` : error.message, elapsedMs: elapsedMs() };
    };

    const request = transport.request(url, {
      method: "POST",
      headers: { ...headers, "Content-Length": String(payload.length), "User-Agent": "Referloop-Webhooks/1" },
      signal,
      agent: false,
      ...(options.refusePrivate ? { lookup: guardedLookup } : {}),
    });
    request.on("error", (error) => settle(failure(error)));
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () =>
        settle({
          kind: "response",
          status: response.statusCode ?? 0,
          headers: response.headers,
          excerpt: new TextDecoder().decode(Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES)),
          elapsedMs: elapsedMs(),
        });
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        // The status is what counts; stop reading once the excerpt is full.
        if (size >= RESPONSE_EXCERPT_BYTES) finish();
      });
      response.on("end", finish);
      // A body cut short by the budget or the receiver still leaves a status to judge by.
      response.on("close", finish);
      response.on("error", finish);
    });
    request.end(payload);
  });
}
