/**
 * The front door: `npm run dev` and `npm start` both run this file. It owns the Node HTTP server:
 * the REST API, the client-library endpoints, the OpenAPI document, the widget's files, the hosted
 * landing pages (and their click beacon), the referrer's portal pages, the operator's endpoints and the inbound provider hooks are answered from their handlers (src/server/http/front-door.ts), everything
 * else by Next.js's request handler. It starts and stops the delivery worker, the click purge and the release of ended reward holds, and
 * on PostgreSQL can run several processes sharing the port (REFERLOOP_WORKERS).
 *
 *   npm start -- [--port 3000] [--hostname 0.0.0.0]     (PORT and HOSTNAME otherwise)
 */
import cluster from "node:cluster";
import http from "node:http";
import { parseArgs } from "node:util";
import next from "next";
import { AggregatorRegistry } from "prom-client";
import { answerRest } from "@/server/api/rest/handle-rest-request";
import { answerSdk } from "@/server/api/rest/handle-sdk-request";
import { OPENAPI_DOCUMENT_PATH, serveOpenApiDocument } from "@/server/api/openapi/serve-document";
import { appServices } from "@/server/api/trpc/context";
import { getConfigOrExit, warnAboutRelaxations, type Config } from "@/server/config";
import { migrationNames } from "@/server/db/migrate";
import { poolOf } from "@/server/db/prepared-statements";
import { countDueDeliveries } from "@/server/domain/deliveries/claim-attempts";
import { createFrontDoor } from "@/server/http/front-door";
import { answerLanding, LANDING_PREFIX } from "@/server/http/landing/answer-landing";
import { answerPortal, PORTAL_PREFIX } from "@/server/http/portal/answer-portal";
import { inboundHookRoute } from "@/server/http/inbound-hooks/answer-inbound-hook";
import { operatorRoutes } from "@/server/http/operator-routes";
import { serveWidget, WIDGET_PREFIX } from "@/server/http/widget-files";
import { startClickPurge, stopClickPurge } from "@/server/jobs/click-purge";
import { startHoldRelease, stopHoldRelease } from "@/server/jobs/hold-release";
import { startCreditFold, stopCreditFold } from "@/server/jobs/credit-fold";
import { deliveryWorkerSlotsInUse, startDeliveryWorker, stopDeliveryWorker } from "@/server/jobs/delivery-worker";
import { flushLogs, logger } from "@/server/observability/logger";
import { metricsText, registerRuntimeGauges } from "@/server/observability/metrics";

const config = getConfigOrExit();
const log = logger();
const { values: flags } = parseArgs({ options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } } });
const port = flags.port === undefined ? config.server.port : Number(flags.port);
const hostname = flags.hostname ?? config.server.hostname;

if (cluster.isPrimary) {
  warnAboutRelaxations(config, (line) => log.warn(line));
  if (config.server.processes > 1 && !config.databaseUrl) {
    log.warn(`REFERLOOP_WORKERS=${config.server.processes}: the embedded database is opened by one process, so one serves; set DATABASE_URL to run more`);
  }
  if (config.server.processes > 1 && config.databaseUrl) runPrimary(config.server.processes);
  else await serve(config);
} else {
  await serve(config);
}

async function serve(config: Config): Promise<void> {
  // A cluster worker answers the primary's requests for its metrics (prom-client listens once this exists).
  if (cluster.isWorker) new AggregatorRegistry();
  const app = next({ dev: config.devServer, dir: process.cwd(), hostname, port });
  // The database first: on the embedded one, opening it applies the migrations before any request.
  const services = await appServices();
  const [migrations] = await Promise.all([migrationNames(), app.prepare()]);
  await startDeliveryWorker();
  startClickPurge();
  startHoldRelease();
  startCreditFold();
  registerRuntimeGauges({
    dueDeliveries: () => countDueDeliveries(services.db),
    workerSlotsInUse: deliveryWorkerSlotsInUse,
    pool: () => {
      const pool = poolOf(services.db);
      return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
    },
  });

  const routes = [
    ...operatorRoutes({ db: async () => services.db, migrations, metricsToken: config.metricsToken, metrics: cluster.isWorker ? metricsOfCluster : metricsText }),
    { path: WIDGET_PREFIX, handle: (request) => serveWidget(request, { watch: config.devServer }) },
    { path: OPENAPI_DOCUMENT_PATH, handle: serveOpenApiDocument },
    { path: "/api/v1/sdk/", handle: (request) => answerSdk(request, services) },
    inboundHookRoute(services),
    { path: "/api/v1/", handle: (request) => answerRest(request, services) },
    { path: LANDING_PREFIX, handle: (request) => answerLanding(request, services) },
    { path: PORTAL_PREFIX, handle: (request) => answerPortal(request, services) },
  ] satisfies Parameters<typeof createFrontDoor>[0]["routes"];
  const server = http.createServer(createFrontDoor({ routes, fallback: app.getRequestHandler(), log, accessLog: config.accessLog }));
  // The dashboard's hot reload (next dev) talks over a WebSocket.
  server.on("upgrade", app.getUpgradeHandler());
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, hostname, resolve));
  const shown = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
  log.info({ url: `http://${shown}:${port}`, node: process.version, dev: config.devServer, scheduler: services.scheduler.kind }, "listening");

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, timeoutMs: config.server.shutdownTimeoutMs }, "shutting down: finishing requests in flight");
    // No new connections; keep-alive ones close as soon as they are idle (checked every 50 ms, else a
    // connection whose answer went out after the first check would wait out its keep-alive timeout).
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const timer = setTimeout(() => {
      log.warn("requests still in flight at the shutdown bound: closing their connections");
      server.closeAllConnections();
    }, config.server.shutdownTimeoutMs);
    await closed;
    clearInterval(idle);
    clearTimeout(timer);
    // After the requests: a reward answered during the wait may have handed its deliveries to the worker.
    await Promise.all([stopDeliveryWorker(), stopClickPurge(), stopHoldRelease(), stopCreditFold()]).catch((error: unknown) => log.error({ err: error }, "stopping the background work failed"));
    log.info("stopped");
    await flushLogs();
    process.exit(0);
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void shutdown(signal));
}

/** How many exits within a minute make the primary give up rather than restart workers forever. */
const MAX_RESTARTS_PER_MINUTE = 5;

/** Several processes sharing the port (PostgreSQL only): each serves and runs its own delivery worker. */
function runPrimary(count: number): void {
  log.info({ processes: count }, "starting server processes");
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  const exits: number[] = [];
  for (let i = 0; i < count; i++) cluster.fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    exits.push(Date.now());
    while (exits[0]! < Date.now() - 60_000) exits.shift();
    log.error({ pid: worker.process.pid, code, signal }, "a server process exited");
    if (exits.length >= MAX_RESTARTS_PER_MINUTE) {
      log.fatal(`${exits.length} server processes exited within a minute: stopping`);
      process.exit(1);
    }
    cluster.fork();
  });
  // A scrape of /metrics reaches one process; it asks here for every process's figures, summed.
  cluster.on("message", (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== METRICS_REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: METRICS_ANSWER, id: message.id, text }),
      (error: unknown) => worker.send({ type: METRICS_ANSWER, id: message.id, error: String(error) }),
    );
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    });
  }
}

const METRICS_REQUEST = "referloop:metrics?";
const METRICS_ANSWER = "referloop:metrics";
let metricsRequests = 0;

/** In a cluster worker: the whole cluster's metrics, from the primary. */
function metricsOfCluster(): Promise<string> {
  const id = ++metricsRequests;
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string; id?: number; text?: string; error?: string }) => {
      if (message?.type !== METRICS_ANSWER || message.id !== id) return;
      process.off("message", onMessage);
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message.text ?? "");
    };
    process.on("message", onMessage);
    process.send!({ type: METRICS_REQUEST, id });
  });
}
