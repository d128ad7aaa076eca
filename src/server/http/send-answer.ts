import type http from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { acceptsCoding } from "./accept-encoding";
import type { ApiAnswer } from "./api-exchange";

const COMPRESS_FROM_BYTES = 1024;
const COMPRESSIBLE = /^(application\/([a-z.+-]*\+)?json|text\/|application\/javascript)/i;
const gzipAsync = promisify(gzip);

/**
 * Writes an answer to Node's response: its headers (every Set-Cookie kept), and its body, gzipped from
 * 1 KiB when the client accepts it and the handler did not encode it already (as Next.js's `compress`
 * does for what it serves), or streamed with backpressure. No body for HEAD.
 */
export async function sendAnswer(res: http.ServerResponse, result: ApiAnswer, { head, acceptEncoding }: { head: boolean; acceptEncoding: string }): Promise<void> {
  result.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = result.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  res.statusCode = result.status;
  const { body } = result;
  if (head || body === null) return void res.end();
  if (typeof body !== "string" && !(body instanceof Uint8Array)) return pipeline(Readable.from(body), res);

  const compressible = COMPRESSIBLE.test(result.headers.get("content-type") ?? "") && !result.headers.has("content-encoding");
  if (compressible) res.setHeader("vary", appendVary(result.headers.get("vary"), "Accept-Encoding"));
  const length = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  if (compressible && length >= COMPRESS_FROM_BYTES && acceptsCoding(acceptEncoding, "gzip")) {
    const bytes = await gzipAsync(body);
    res.setHeader("content-encoding", "gzip");
    res.setHeader("content-length", bytes.length);
    return void res.end(bytes);
  }
  // A string goes out as it is: Node sends it in one write with the head (a buffer is a second chunk).
  res.setHeader("content-length", length);
  res.end(body);
}

const appendVary = (vary: string | null, name: string) =>
  vary?.split(",").some((v) => v.trim().toLowerCase() === name.toLowerCase()) ? vary : vary ? `${vary}, ${name}` : name;
