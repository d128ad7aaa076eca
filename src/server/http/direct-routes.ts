import type http from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { acceptsCoding } from "./accept-encoding";
import { fromNodeRequest, fromResponse, type ApiAnswer, type ApiRequest } from "./api-exchange";
import { refuseAtApiEdge } from "./api-edge";
import { REQUEST_ID_HEADER, requestIdFrom } from "./request-id";
import { requestHeaders, type RequestHook } from "./request-hooks";
import { PATH_HEADERS } from "./security-headers";

/**
 * The requests other servers and browsers send at volume (the REST API, the client-library endpoints,
 * the widget's files) are answered straight from the Node server, without Next.js's routing, proxy
 * and response pipeline: over real HTTP that pipeline cost about 3 ms of CPU per request on the
 * benchmark machine, as much as a whole GET's own work (bench/README.md). The OpenAPI document goes
 * the same way, so that it is built from the router already loaded here rather than from a second
 * copy that its route file would load on the first request (seconds on a busy machine). Nothing else
 * changes: the handlers are those their route files call (the API's without their Fetch wrapping, see
 * api-exchange.ts), and this does what src/proxy.ts and next.config.ts do for these paths (the request
 * id, the problems at the API's edge, PATH_HEADERS) and what Next.js's `compress` does (gzip from
 * 1 KiB). Installed in production only
 * (src/instrumentation-node.ts): `next dev` reloads the route files on change, and this would not
 * (nor does `next dev` serve from the process where instrumentation installs the hooks).
 */
export type DirectRoute = {
  /** A path ending in `/` covers every path below it; any other names one path (with any query). */
  path: string;
  handle: (request: ApiRequest) => Promise<ApiAnswer>;
};

/** A handler written for Fetch objects, as a direct route's. */
export const viaFetch =
  (handle: (request: Request) => Promise<Response>): DirectRoute["handle"] =>
  async (request) =>
    fromResponse(await handle(new Request(request.url, { method: request.method, headers: request.headers })));

const covers = (path: string, target: string) =>
  path.endsWith("/") ? target.startsWith(path) : target === path || target.startsWith(`${path}?`);

const COMPRESS_FROM_BYTES = 1024;
const COMPRESSIBLE = /^(application\/([a-z.+-]*\+)?json|text\/|application\/javascript)/i;
const gzipAsync = promisify(gzip);

export function serveDirectly(routes: DirectRoute[]): RequestHook {
  return (req, res) => {
    const target = req.url ?? "";
    const route = target.startsWith("/") ? routes.find((r) => covers(r.path, target)) : undefined;
    if (!route) return false;
    void answer(route, req, res).catch((error: unknown) => {
      console.error(`[http] ${req.method} ${target.split("?")[0]} failed:`, error);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Internal error");
      else res.destroy();
    });
    return true;
  };
}

async function answer(route: DirectRoute, req: http.IncomingMessage, res: http.ServerResponse) {
  const method = req.method ?? "GET";
  const rawPath = req.url!.split("?")[0]!;
  const headers = requestHeaders(req);
  const requestId = requestIdFrom(headers);
  headers.set(REQUEST_ID_HEADER, requestId);

  const refused = rawPath.startsWith("/api/") ? refuseAtApiEdge(method, rawPath, requestId) : null;
  const result = refused
    ? { status: refused.status, headers: new Headers(refused.headers), body: refused.body }
    : await route.handle(fromNodeRequest(req, new URL(req.url!, `http://${validHost(req.headers.host)}`).href, headers));
  await send(res, result, rawPath, requestId, method === "HEAD", headers.get("accept-encoding") ?? "");
  // A body the handler did not read to the end (refused as too large, or never needed) is dropped.
  if (!req.complete) req.resume();
}

/** `new URL` refuses a malformed Host; the handlers build their links from the headers, not from this. */
const validHost = (host: string | undefined) => (host && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? host : "localhost");

async function send(res: http.ServerResponse, result: ApiAnswer, rawPath: string, requestId: string, head: boolean, acceptEncoding: string) {
  for (const { prefix, headers } of PATH_HEADERS) if (rawPath.startsWith(prefix)) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  result.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = result.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  res.setHeader(REQUEST_ID_HEADER, requestId);
  res.statusCode = result.status;

  let body = head || result.body === null ? null : asBuffer(result.body);
  const compressible = COMPRESSIBLE.test(result.headers.get("content-type") ?? "") && !result.headers.has("content-encoding");
  if (compressible) res.setHeader("vary", appendVary(result.headers.get("vary"), "Accept-Encoding"));
  if (body && compressible && body.length >= COMPRESS_FROM_BYTES && acceptsCoding(acceptEncoding, "gzip")) {
    body = await gzipAsync(body);
    res.setHeader("content-encoding", "gzip");
  }
  if (body) res.setHeader("content-length", body.length);
  res.end(body ?? undefined);
}

const asBuffer = (body: string | Uint8Array) =>
  typeof body === "string" ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);

const appendVary = (vary: string | null, name: string) =>
  vary?.split(",").some((v) => v.trim().toLowerCase() === name.toLowerCase()) ? vary : vary ? `${vary}, ${name}` : name;
