/** Largest accepted request body, REST and tRPC alike (documented in the API reference). */
export const MAX_BODY_BYTES = 256 * 1024;

/** The media types a REST request body may come as: the spec's three forms of JSON. */
export const JSON_MEDIA_TYPES = ["application/json", "text/json", "application/*+json"] as const;
export const JSON_MEDIA_TYPE = /^(application\/([\w.-]+\+)?json|text\/json)$/i;

/** The labels a JSON response may be negotiated as with `Accept` (the spec's three; the body is JSON in each). */
export const RESPONSE_MEDIA_TYPES = ["application/json", "text/json", "text/plain"] as const;

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
