/**
 * Open-loop load at a fixed rate, evenly spaced: request k starts at t0 + k / rate whatever the
 * answers before it did. autocannon's rate limit sends each second's quota as one burst, which would
 * measure our own bursts as queueing in the app; this sender is used where the rate itself matters
 * (reward to webhook latency) and where every answer must be inspected (the drills).
 */
import http from "node:http";

export type PacedRequest = { method: "GET" | "POST"; path: string; headers?: Record<string, string>; body?: string; tag?: string };

export type PacedRecord = {
  tag: string | undefined;
  /** Epoch milliseconds (performance.timeOrigin + now()) when the request was handed to the socket pool. */
  startedAt: number;
  latencyMs: number;
  /** 0 when no HTTP answer came (connection refused or reset, timeout). */
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  error?: string;
};

export type PacedOptions = {
  origin: string;
  ratePerS: number;
  durationS: number;
  /** Sockets kept open to the server; requests beyond them wait in the pool (and that wait is measured). */
  connections: number;
  /** The next request; null ends the run early (nothing left to send). */
  next: (index: number) => PacedRequest | null;
  timeoutMs?: number;
};

export const epochNow = () => performance.timeOrigin + performance.now();

export async function runPaced(options: PacedOptions): Promise<{ records: PacedRecord[]; sent: number; wallS: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const url = new URL(options.origin);
  const records: PacedRecord[] = [];
  const inFlight = new Set<Promise<void>>();
  const total = Math.max(1, Math.round(options.ratePerS * options.durationS));
  const intervalMs = 1000 / options.ratePerS;
  const started = performance.now();
  let sent = 0;

  const send = (request: PacedRequest) =>
    new Promise<void>((resolve) => {
      const startedAt = epochNow();
      const t0 = performance.now();
      let settled = false;
      // Once per request: a socket error may follow a complete answer.
      const done = (record: Omit<PacedRecord, "tag" | "startedAt" | "latencyMs">) => {
        if (settled) return;
        settled = true;
        records.push({ tag: request.tag, startedAt, latencyMs: performance.now() - t0, ...record });
        resolve();
      };
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: request.method,
          path: request.path,
          agent,
          headers: { ...request.headers, ...(body ? { "content-length": String(body.length) } : {}) },
          timeout: options.timeoutMs ?? 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", (error) => done({ status: 0, headers: {}, body: "", error: error.message }));
        },
      );
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", (error: NodeJS.ErrnoException) => done({ status: 0, headers: {}, body: "", error: error.code ?? error.message }));
      req.end(body);
    });

  for (let k = 0; k < total; k++) {
    const due = started + k * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const request = options.next(k);
    if (!request) break;
    const p = send(request).finally(() => inFlight.delete(p));
    inFlight.add(p);
    sent++;
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { records, sent, wallS: (performance.now() - started) / 1000 };
}
