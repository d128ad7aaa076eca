import type http from "node:http";
import type { Logger } from "@/server/observability/logger";
import { metrics } from "@/server/observability/metrics";
import { refuseAtApiEdge, type EdgeAnswer } from "./api-edge";
import { fromNodeRequest, type ApiAnswer, type ApiRequest } from "./api-exchange";
import { HeaderMap } from "./header-map";
import { PEER_ADDRESS_HEADER } from "./peer-address";
import { acceptRequestId, REQUEST_ID_HEADER } from "./request-id";
import { PATH_HEADERS } from "./security-headers";
import { sendAnswer } from "./send-answer";

/** A path the front door answers itself. */
export type Route = {
  /** A path ending in `/` covers every path below it; any other names one path (with any query). */
  path: string;
  handle: (request: ApiRequest) => Promise<ApiAnswer>;
};

export type FrontDoorOptions = {
  /** In order: the first that covers a request's path answers it. */
  routes: Route[];
  /** Everything else: Next.js's request handler (the dashboard, auth, landing pages, static files). */
  fallback: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;
  log: Logger;
  /** One info line per request. */
  accessLog: boolean;
};

/** Methods a Fetch Request cannot carry (Next.js would answer them with its own 500); Node refuses CONNECT itself. */
const FORBIDDEN_METHODS = new Set(["TRACE", "TRACK"]);
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The one door every request comes through, in `npm run dev` and `npm start` alike. For each request
 * it records the TCP peer's address (replacing any header a client sent under that name), sets the
 * request id (the caller's, when usable) on the request and the answer, and the headers every path
 * carries; refuses at the edge what Next.js would turn into a 500 under /api/; answers its own routes
 * from their handlers (the REST API, the client library, the OpenAPI document, the widget's files,
 * the operator's endpoints) without Next.js's pipeline; and hands everything else to Next.js. Each
 * request ends in one log line and the request metrics, named by route template, never by a path
 * that could carry a token.
 */
export function createFrontDoor({ routes, fallback, log, accessLog }: FrontDoorOptions): http.RequestListener {
  return (req, res) => {
    const started = performance.now();
    const method = req.method ?? "GET";
    const target = req.url ?? "/";
    const path = target.split("?", 1)[0]!;
    req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
    const requestId = (req.headers[REQUEST_ID_HEADER] = acceptRequestId(req.headers[REQUEST_ID_HEADER]));
    res.setHeader(REQUEST_ID_HEADER, requestId);
    for (const { prefix, headers } of PATH_HEADERS) if (path.startsWith(prefix)) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);

    const route = target.startsWith("/") ? routes.find((r) => covers(r.path, path)) : undefined;
    let template = route ? templateOf(route) : nextTemplate(path);
    res.once("close", () => {
      const status = res.statusCode;
      const labels = { method: KNOWN_METHODS.has(method) ? method : "other", route: template };
      const seconds = (performance.now() - started) / 1000;
      metrics.requests.inc({ ...labels, status });
      metrics.requestSeconds.observe(labels, seconds);
      if (accessLog) log.info({ method, route: template, status, ms: Math.round(seconds * 1000), requestId, ...(res.writableFinished ? {} : { aborted: true }) }, "request");
    });

    const fail = (error: unknown) => {
      log.error({ err: error, method, route: template, requestId }, "request failed");
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end(`Internal error (request ${requestId})`);
      else res.destroy();
    };
    const refused = refuse(method, path, requestId);
    if (refused) return void res.writeHead(refused.status, refused.headers).end(refused.body);
    if (!route) return void fallback(req, res).catch(fail);

    const headers = HeaderMap.fromNode(req.headers);
    const request = fromNodeRequest(req, new URL(target, `http://${validHost(req.headers.host)}`).href, headers);
    void route
      .handle(request)
      .then((answer) => {
        if (answer.route) template = answer.route;
        return sendAnswer(res, answer, { head: method === "HEAD", acceptEncoding: headers.get("accept-encoding") ?? "" });
      })
      // A body the handler did not read to the end (refused as too large, or never needed) is dropped.
      .then(() => void (req.complete || req.resume()))
      .catch(fail);
  };
}

/** TRACE and TRACK anywhere; under /api/, also malformed escapes and methods no API route serves. */
function refuse(method: string, path: string, requestId: string): EdgeAnswer | null {
  const api = path.startsWith("/api/");
  if (FORBIDDEN_METHODS.has(method) && !api) return { status: 405, headers: { "content-type": "text/plain; charset=utf-8", allow: "GET, HEAD, POST" }, body: "Method Not Allowed" };
  return api ? refuseAtApiEdge(method, path, requestId) : null;
}

const covers = (routePath: string, path: string) => (routePath.endsWith("/") ? path.startsWith(routePath) : path === routePath);

const templateOf = (route: Route) => (route.path.endsWith("/") ? `${route.path}*` : route.path);

/** The label of every request no known route template covers: one series, whatever the path. */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * What Next.js serves (src/app's folders and files, and its own /_next/), by first segment, and under
 * /api/ and /_next/ by second. Only these name a template: a path is a stranger's to choose, and a
 * label per distinct path would grow the metrics without bound.
 */
export const NEXT_ROUTE_SEGMENTS: Record<string, readonly string[] | null> = {
  api: ["audit-log", "auth", "inngest", "projects", "trpc"],
  _next: ["static", "image", "data", "webpack-hmr"],
  dashboard: null,
  dev: null,
  "forgot-password": null,
  "icon.svg": null,
  icons: null,
  invitations: null,
  "reset-password": null,
  "sign-in": null,
  "sign-up": null,
  "verify-email": null,
};

/**
 * What Next.js serves, named by its first segments only (`/dashboard/*`, `/api/trpc/*`): a later
 * segment may be a secret (an invitation's token). A path outside NEXT_ROUTE_SEGMENTS is UNMATCHED_ROUTE.
 */
export function nextTemplate(path: string): string {
  const segments = path.split("/").filter(Boolean);
  if (segments.length === 0) return "/";
  const [first, second] = segments as [string, string | undefined];
  if (!Object.hasOwn(NEXT_ROUTE_SEGMENTS, first)) return UNMATCHED_ROUTE;
  const below = NEXT_ROUTE_SEGMENTS[first];
  if (below && !(second !== undefined && below.includes(second))) return UNMATCHED_ROUTE;
  const kept = below ? 2 : 1;
  return `/${segments.slice(0, kept).join("/")}${segments.length > kept ? "/*" : ""}`;
}

/** `new URL` refuses a malformed Host; the handlers build their links from the headers, not from this. */
const validHost = (host: string | undefined) => (host && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? host : "localhost");
