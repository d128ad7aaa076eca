import { refuseAtApiEdge } from "./api-edge";
import { requestIdFrom } from "./request-id";
import { requestHeaders, type RequestHook } from "./request-hooks";

/**
 * Fetch's Request refuses to exist with a forbidden method (TRACE, TRACK, CONNECT), and Next.js builds
 * one for every request before any of our code runs, so a TRACE ends in Next's own 500 text/plain.
 * This hook (request-hooks.ts) answers those requests as they arrive at the Node server: a 405 problem
 * under /api/, a plain 405 elsewhere. (Node answers CONNECT itself by closing the connection.)
 */
const FORBIDDEN = new Set(["TRACE", "TRACK", "CONNECT"]);

export const answerForbiddenMethods: RequestHook = (req, res) => {
  if (!req.method || !FORBIDDEN.has(req.method)) return false;
  const path = (req.url ?? "/").split("?")[0]!;
  const answer = path.startsWith("/api/")
    ? refuseAtApiEdge(req.method, path, requestIdFrom(requestHeaders(req)))!
    : { status: 405, headers: { "content-type": "text/plain; charset=utf-8", allow: "GET, HEAD, POST" }, body: "Method Not Allowed" };
  res.writeHead(answer.status, answer.headers).end(answer.body);
  return true;
};
