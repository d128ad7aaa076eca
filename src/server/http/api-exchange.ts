import type http from "node:http";
import { Readable } from "node:stream";
import { HeaderMap } from "./header-map";

/**
 * A request as the front door's handlers read it: a Fetch Request's method, URL and headers, and its
 * body read on demand. Fetch's Request and Response wrap every body in a web stream (a Response made
 * from a string too), and building and reading those streams was about a tenth of a REST call's Node
 * CPU; the front door (front-door.ts) reads the body straight from Node's request and writes the
 * answer straight to Node's response. Tests keep Fetch objects through fromFetchRequest and toResponse.
 */
export type ApiRequest = {
  method: string;
  url: string;
  headers: Headers;
  /**
   * The body's bytes, or null when it is larger than `max`: then it is not buffered, and what is
   * left of it is read and dropped, so that the answer can still go out on the connection.
   */
  readBody(max: number): Promise<Uint8Array | null>;
};

/**
 * An answer before it becomes a Fetch Response or is written to Node's response: a body in memory, or
 * streamed (written as it is produced, at the pace the client reads). `route` names the answered path
 * by its template (`/api/v1/public/projects/{projectId}/users`) for the access log and the metrics.
 */
export type ApiAnswer = { status: number; headers: Headers; body: string | Uint8Array | AsyncIterable<Uint8Array | string> | null; route?: string };

export const answer = (status: number, headers: HeadersInit = {}, body: string | null = null): ApiAnswer => ({
  status,
  headers: headers instanceof HeaderMap || headers instanceof Headers ? headers : new HeaderMap(headers),
  body,
});

export function fromFetchRequest(req: Request): ApiRequest {
  return {
    method: req.method,
    url: req.url,
    headers: req.headers,
    async readBody(max) {
      if (!req.body) return new Uint8Array();
      const chunks: Uint8Array[] = [];
      let size = 0;
      const reader = req.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return Buffer.concat(chunks);
        size += value.byteLength;
        if (size > max) {
          await reader.cancel();
          return null;
        }
        chunks.push(value);
      }
    },
  };
}

/** Node's request, with `headers` already read into a HeaderMap (and `url` absolute). */
export function fromNodeRequest(req: http.IncomingMessage, url: string, headers: Headers): ApiRequest {
  return {
    method: req.method ?? "GET",
    url,
    headers,
    readBody: (max) =>
      new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const settle = () => {
          req.off("data", onData).off("end", onEnd).off("error", onError);
        };
        const onData = (chunk: Buffer) => {
          size += chunk.length;
          if (size <= max) return void chunks.push(chunk);
          // Destroying the request would reset the connection the client is still sending on.
          settle();
          req.resume();
          resolve(null);
        };
        const onEnd = () => (settle(), resolve(Buffer.concat(chunks)));
        const onError = (error: Error) => (settle(), reject(error));
        req.on("data", onData).on("end", onEnd).on("error", onError);
      }),
  };
}

export const toResponse = ({ status, headers, body }: ApiAnswer): Response =>
  new Response(body === null || typeof body === "string" || body instanceof Uint8Array ? (body as BodyInit | null) : (Readable.toWeb(Readable.from(body)) as ReadableStream), {
    status,
    headers,
  });

export async function fromResponse(response: Response): Promise<ApiAnswer> {
  return { status: response.status, headers: response.headers, body: response.body ? Buffer.from(await response.arrayBuffer()) : null };
}
