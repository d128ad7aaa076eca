/** Largest accepted request body, REST and tRPC alike (documented in the API reference). */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The body's bytes, at most `max` of them: a larger body (by Content-Length, or as it streams in,
 * for chunked requests that announce nothing) throws `tooLarge()` without being buffered.
 */
export async function readLimitedBody(req: Request, tooLarge: () => Error, max = MAX_BODY_BYTES): Promise<Uint8Array> {
  if (Number(req.headers.get("content-length") ?? 0) > max) throw tooLarge();
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
