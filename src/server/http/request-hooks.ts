import http from "node:http";
import https from "node:https";

/**
 * Next.js creates the Node server itself and builds a Fetch Request, routes, and runs the proxy for
 * every request before any route handler sees it. Some requests must be seen earlier (the socket's
 * address, methods Fetch cannot carry) and some are served better without that pipeline (the API and
 * the widget's files, see direct-routes.ts). A hook sees each request as the Node server receives it,
 * in order, and returns true when it has answered it; Next.js then never sees the request.
 *
 * Installed once per server process by src/instrumentation-node.ts; installing again replaces the list.
 */
export type RequestHook = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
const HOOKS = Symbol.for("referloop.requestHooks");
type Patched = { emit: Emit; [HOOKS]?: RequestHook[] };

export function installRequestHooks(hooks: RequestHook[]): void {
  for (const Server of [http.Server, https.Server]) {
    const proto = Server.prototype as unknown as Patched;
    if (!proto[HOOKS]) {
      const emit = proto.emit;
      proto.emit = function (event, ...args) {
        if (event === "request") {
          const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
          for (const hook of proto[HOOKS] ?? []) if (hook(req, res)) return true;
        }
        return emit.call(this, event, ...args);
      };
    }
    proto[HOOKS] = hooks;
  }
}

/** A Node request's headers as Fetch Headers (repeated headers kept), for code written against Fetch. */
export function requestHeaders(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}
