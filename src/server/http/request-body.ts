import type { ApiRequest } from "./api-exchange";

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
export async function readLimitedBody(req: ApiRequest, tooLarge: () => Error, max = MAX_BODY_BYTES): Promise<Uint8Array> {
  if (Number(req.headers.get("content-length") ?? 0) > max) throw tooLarge();
  const body = await req.readBody(max);
  if (!body) throw tooLarge();
  return body;
}
