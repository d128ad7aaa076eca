import client from "prom-client";

/**
 * What /metrics reports (Prometheus text format, prom-client's default registry): requests by route
 * template and status with their latency, reward outcomes by reason, how reward events' first statements went, delivery attempts by result, and,
 * read at each scrape, due deliveries waiting, the delivery worker's slots in use and the database
 * pool's connections (registerRuntimeGauges), plus Node's own process metrics.
 */
function createMetrics() {
  client.collectDefaultMetrics();
  return {
    requests: new client.Counter({ name: "referloop_http_requests_total", help: "HTTP requests answered, by method, route template and status.", labelNames: ["method", "route", "status"] }),
    requestSeconds: new client.Histogram({
      name: "referloop_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by method and route template.",
      labelNames: ["method", "route"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    }),
    rewards: new client.Counter({
      name: "referloop_reward_events_total",
      help: "Reported reward events, by outcome (claimed or refused) and the refusal's reason.",
      labelNames: ["outcome", "reason"],
    }),
    rewardFirstStatements: new client.Counter({
      name: "referloop_reward_first_statements_total",
      help: "Reported reward events by their first statement: claimed (nothing was left to decide), declined (the checks decided after it), or skipped (the campaign sets a reward rule or a milestone: the item was read for the checks).",
      labelNames: ["result"],
    }),
    deliveryAttempts: new client.Counter({
      name: "referloop_delivery_attempts_total",
      help: "Webhook delivery attempts recorded, by result: succeeded, retry (another attempt is due) or failed (dead-lettered or out of attempts).",
      labelNames: ["result"],
    }),
  };
}

// On globalThis: the server's modules and Next.js's bundle of the same code share prom-client (an
// external package) and so its registry, where each metric may be registered once.
const holder = globalThis as { __referloopMetrics?: ReturnType<typeof createMetrics> };
export const metrics = (holder.__referloopMetrics ??= createMetrics());

/** Gauges read when scraped, from what only the running server has. */
export function registerRuntimeGauges(sources: {
  dueDeliveries: () => Promise<number>;
  workerSlotsInUse: () => Promise<number>;
  pool: () => { total: number; idle: number; waiting: number } | null;
}): void {
  const g = globalThis as { __referloopRuntimeGauges?: true };
  if (g.__referloopRuntimeGauges) return;
  g.__referloopRuntimeGauges = true;
  new client.Gauge({
    name: "referloop_deliveries_due",
    help: "Pending deliveries whose next attempt is due and not leased by a worker.",
    // Every process reads the same rows: across a server's processes this is one figure, not a sum.
    aggregator: "max",
    async collect() {
      this.set(await sources.dueDeliveries());
    },
  });
  new client.Gauge({
    name: "referloop_delivery_worker_slots_in_use",
    help: "Attempts this process's delivery worker has in flight.",
    async collect() {
      this.set(await sources.workerSlotsInUse());
    },
  });
  new client.Gauge({
    name: "referloop_db_pool_connections",
    help: "The database pool's connections, by state (PostgreSQL only).",
    labelNames: ["state"],
    collect() {
      const pool = sources.pool();
      if (!pool) return;
      for (const [state, value] of Object.entries(pool)) this.set({ state }, value);
    },
  });
}

export const metricsContentType = client.register.contentType;

/** This process's metrics, in Prometheus text format. */
export const metricsText = (): Promise<string> => client.register.metrics();
