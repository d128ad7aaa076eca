import { TRPCError, type AnyProcedure } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { createSessionContext, type Services, type SessionToken } from "@/server/api/trpc/context";
import { appRouter } from "@/server/api/root";
import type { Meta } from "@/server/api/trpc/procedures";
import { procedureMeta } from "@/server/api/openapi/procedure-meta";
import { problemOf, type Problem } from "@/server/http/problem";
import { MAX_BODY_BYTES } from "@/server/http/request-body";
import { crossSiteRefusal, provenSameOrigin } from "@/server/http/same-origin";
import { REQUEST_ID_HEADER, requestIdFrom, withRequestId } from "@/server/http/request-id";
import { MAX_TRPC_BATCH_SIZE } from "@/lib/trpc-batch";
import { logger } from "@/server/observability/logger";

/** The session cookie's token (null: signed out) and the organisation the user picked. */
export type Session = { token: SessionToken | null; organizationId: string | null };

/**
 * The dashboard's tRPC endpoint. Changes (mutations: every POST) only from the app's own pages and
 * only as JSON (refuseUnsafeChange). With the REST surface's protections: the same body limit (413, read
 * as it streams in), batches of at most MAX_TRPC_BATCH_SIZE calls and none holding a `batch: false`
 * procedure, `X-Request-Id` on every answer,
 * and an internal error logged under that id while the caller sees only the id (errorFormatter).
 */
export async function handleTrpcRequest(req: Request, services: Services, session: () => Promise<Session>): Promise<Response> {
  const requestId = requestIdFrom(req.headers);
  const refused = refuseUnsafeChange(req, services.config, requestId);
  if (refused) return refused;
  return withRequestId(requestId, () => fetchRequestHandler({
    endpoint: "/api/trpc",
    req: withBodyLimit(req),
    router: appRouter,
    maxBatchSize: MAX_TRPC_BATCH_SIZE,
    createContext: async ({ resHeaders, info }) => {
      refuseUnbatchable(info.calls);
      const { token, organizationId } = await session();
      return createSessionContext(services, req.headers, token, organizationId, { requestId, responseHeaders: resHeaders });
    },
    // Dashboard responses carry secrets (new keys, rotated secrets) and private data: never cached.
    responseMeta: () => ({ headers: { "cache-control": "no-store", [REQUEST_ID_HEADER]: requestId } }),
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") logger().error({ err: error.cause ?? error, procedure: path, requestId }, "dashboard call failed");
    },
  }));
}

/** The media types a change may come as: JSON, and multipart form data for uploads (meta `binaryBody`). */
const JSON_TYPE = "application/json";
const FORM_TYPE = "multipart/form-data";

/**
 * A cross-site form can POST to any URL with the browser's cookies (SameSite=Lax aside), as
 * `text/plain`, `application/x-www-form-urlencoded` or `multipart/form-data`, and without a CORS
 * preflight. So a change is refused with a 403 problem when its `Origin` is not the app's own or the
 * browser says it is cross-site (same-origin.ts), and with a 415 problem unless it is JSON (which a
 * cross-site page cannot send without a preflight this app never grants). The one exception, the icon
 * upload's multipart form, must prove it comes from the app's own page (`Origin` or `Sec-Fetch-Site`).
 * Queries (GET) change nothing and pass.
 */
function refuseUnsafeChange(req: Request, config: Services["config"], requestId: string): Response | null {
  if (req.method === "GET" || req.method === "HEAD") return null;
  const crossSite = crossSiteRefusal(req, config);
  if (crossSite) return problemResponse(problemOf("forbidden", crossSite, { requestId }), requestId);
  const mediaType = (req.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
  if (mediaType === JSON_TYPE) return null;
  // An upload is one call (unbatched), named by the path: `/api/trpc/projects.setIcon`.
  const path = new URL(req.url).pathname.replace(/^\/api\/trpc\/?/, "");
  if (mediaType === FORM_TYPE && procedureMeta(path)?.binaryBody && provenSameOrigin(req, config)) return null;
  const detail = `Dashboard changes are sent as ${JSON_TYPE}${mediaType ? `, not ${mediaType.slice(0, 100)}` : ""}.`;
  return problemResponse(problemOf("unsupported-media-type", detail, { requestId }), requestId);
}

const problemResponse = (problem: Problem, requestId: string) =>
  new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { "content-type": "application/problem+json; charset=utf-8", "cache-control": "no-store", [REQUEST_ID_HEADER]: requestId },
  });

/**
 * A batch holding a procedure marked `batch: false` (the signed-out calls, each limited per client) is
 * refused whole, before any call runs: thrown from createContext, so every call answers this 400.
 */
function refuseUnbatchable(calls: readonly { path: string; procedure: AnyProcedure | null }[]): void {
  if (calls.length < 2) return;
  const alone = calls.find((call) => (call.procedure?._def.meta as Meta | undefined)?.batch === false);
  if (alone) {
    throw new TRPCError({
      code: "BAD_REQUEST",
      message: `${alone.path} cannot be batched: send it as a request of its own. None of this batch's ${calls.length} calls ran.`,
    });
  }
}

/**
 * The request with a body that fails once it passes MAX_BODY_BYTES. tRPC reads it while resolving the
 * calls, and passes the TRPCError through, so each call answers 413 in tRPC's own error shape.
 */
function withBodyLimit(req: Request): Request {
  if (!req.body) return req;
  let size = 0;
  const limited = req.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > MAX_BODY_BYTES) controller.error(new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: `The body exceeds ${MAX_BODY_BYTES} bytes.` }));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Request(req.url, { method: req.method, headers: req.headers, body: limited, signal: req.signal, duplex: "half" } as RequestInit);
}
