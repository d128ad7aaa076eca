import http from "node:http";
import { refuseAtApiEdge } from "./api-edge";
import { requestIdFrom } from "./request-id";

/**
 * Fetch's Request refuses to exist with a forbidden method (TRACE, TRACK, CONNECT), and Next.js builds
 * one for every request before any of our code runs, so a TRACE ends in Next's own 500 text/plain.
 * Those requests are answered here instead, as they arrive at the Node server: a 405 problem under
 * /api/, a plain 405 elsewhere. (Node answers CONNECT itself by closing the connection.)
 * Installed once per server process by src/instrumentation-node.ts.
 */
const FORBIDDEN = new Set(["TRACE", "TRACK", "CONNECT"]);

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
const installed = Symbol.for("referloop.forbiddenMethods");

export function answerForbiddenMethods(): void {
  const proto = http.Server.prototype as unknown as { emit: Emit; [installed]?: true };
  if (proto[installed]) return;
  const emit = proto.emit;
  proto.emit = function (event, ...args) {
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
    if (event !== "request" || !req.method || !FORBIDDEN.has(req.method)) return emit.call(this, event, ...args);
    const path = (req.url ?? "/").split("?")[0]!;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const answer = path.startsWith("/api/")
      ? refuseAtApiEdge(req.method, path, requestIdFrom(headers))!
      : { status: 405, headers: { "content-type": "text/plain; charset=utf-8", allow: "GET, HEAD, POST" }, body: "Method Not Allowed" };
    res.writeHead(answer.status, answer.headers).end(answer.body);
    return true;
  };
  proto[installed] = true;
}
