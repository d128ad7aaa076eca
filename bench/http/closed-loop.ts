/**
 * Closed-loop load with autocannon: `connections` keep-alive connections, each sending its next
 * request as soon as the previous answer arrives, for `durationS`. Latencies are kept per request
 * (autocannon's own histogram rounds to whole milliseconds) and every status is counted.
 */
import autocannon from "autocannon";
import { summarize, type LatencySummary } from "../stats";

export type RequestSpec = { method: "GET" | "POST"; path: string; headers?: Record<string, string>; body?: string };

export type LoadResult = {
  requests: number;
  wallS: number;
  ratePerS: number;
  latency: LatencySummary;
  /** Answers outside 2xx. */
  non2xx: number;
  /** Requests without an answer: connection errors and timeouts. */
  failures: number;
  statusCounts: Record<string, number>;
  /** The request source ran dry before the duration ended (the run stopped there). */
  exhausted: boolean;
};

export async function runClosedLoop(options: {
  origin: string;
  connections: number;
  durationS: number;
  /** The next request; null when there is nothing left to send (ends the run). */
  next: () => RequestSpec | null;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  let exhausted = false;
  let last: RequestSpec | undefined;
  let finished!: (result: { errors: number }) => void;
  let failed!: (error: unknown) => void;
  const done = new Promise<{ errors: number }>((resolve, reject) => ((finished = resolve), (failed = reject)));
  // Filled once autocannon returns: setupRequest already runs inside the call.
  const holder: { instance?: autocannon.Instance } = {};
  const started = performance.now();
  const instance = (holder.instance = autocannon(
    {
      url: options.origin,
      connections: options.connections,
      duration: options.durationS,
      timeout: 30,
      requests: [
        {
          setupRequest: (request) => {
            const spec = exhausted ? undefined : options.next();
            if (!spec) {
              // Sent once more by autocannon before it stops; its answer is not counted.
              exhausted = true;
              holder.instance?.stop();
              return { ...request, ...last } as typeof request;
            }
            last = spec;
            return { ...request, ...spec } as typeof request;
          },
        },
      ],
    },
    (error, result) => (error ? failed(error) : finished(result)),
  ));
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    if (exhausted) return;
    latencies.push(responseTime);
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
  });
  const result = await done;
  const wallS = (performance.now() - started) / 1000;
  const non2xx = Object.entries(statusCounts)
    .filter(([status]) => !status.startsWith("2"))
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    requests: latencies.length,
    wallS,
    ratePerS: latencies.length / wallS,
    latency: summarize(latencies),
    non2xx,
    failures: result.errors,
    statusCounts,
    exhausted,
  };
}
