import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { bearerToken, createRestContext, requestScope, type RequestScope, type Services } from "@/server/api/context";
import { type Problem, problemFromError, toTRPCError } from "@/server/api/problem";
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from "@/server/db/database-unavailable";
import { invalidField } from "@/server/domain/errors";
import { appRouter } from "@/server/api/root";
import { procedureMeta } from "@/server/api/procedure-meta";
import type { Context } from "@/server/api/trpc";
import { answer, fromFetchRequest, toResponse, type ApiAnswer, type ApiRequest } from "@/server/http/api-exchange";
import { JSON_MEDIA_TYPE, MAX_BODY_BYTES, readLimitedBody, RESPONSE_MEDIA_TYPES } from "@/server/http/request-body";
import { REQUEST_ID_HEADER } from "@/server/http/request-id";
import { allowHeader, operationsAt, type RestOperation } from "./rest-operations";

export { MAX_BODY_BYTES };
const REST_PREFIXES = ["/api/v1/public/", "/api/v1/sdk/"];


/**
 * trpc-to-openapi's router, built once: its fetch adapter would rebuild it (and, outside production,
 * regenerate the whole OpenAPI document) on every request. Each call finds its context by its request.
 */
const contexts = new WeakMap<object, () => Promise<Context>>();
const openApiHandler = createOpenApiNodeHttpHandler({
  router: appRouter,
  createContext: ({ req }) => contexts.get(req)!(),
  responseMeta: ({ paths, errors }) => {
    const meta = paths?.[0] ? procedureMeta(paths[0]) : undefined;
    const status = !errors.length ? meta?.status : undefined;
    return { ...(status ? { status } : {}), ...(meta?.secret ? { headers: { "cache-control": "no-store" } } : {}) };
  },
  onError: ({ error, path, req }) => {
    if (getHTTPStatusCodeFromError(error) < 500) return;
    const requestId = (req as unknown as ApiRequest).headers.get(REQUEST_ID_HEADER);
    // One line per request while the database is away, not a stack trace each.
    if (isDatabaseUnavailable(error.cause)) console.warn(`[rest] ${req.method} ${path ?? req.url}: the database is unavailable (request ${requestId})`);
    else console.error(`[rest] ${req.method} ${path ?? req.url} failed (request ${requestId}):`, error.cause ?? error);
  },
});

/** answerRest for a Fetch Request (the route file, tests). */
export const handleRestRequest = async (req: Request, services: Services): Promise<Response> => toResponse(await answerRest(fromFetchRequest(req), services));

/**
 * The one wrapper around every REST call: it closes the gaps between trpc-to-openapi and the spec
 * (JSON media types, PascalCase field names, body size, 201 for creates, problem+json errors,
 * negotiated response types), so no procedure repeats any of it.
 */
export async function answerRest(req: ApiRequest, services: Services): Promise<ApiAnswer> {
  const url = new URL(req.url);
  const started = performance.now();
  const scope = requestScope(req.headers);
  let result: ApiAnswer;
  try {
    const routed = route(req.method, url.pathname, scope.requestId);
    if ("answer" in routed) {
      result = routed.answer;
    } else {
      const { operation } = routed;
      const { target, body } = await normalizeRequest(req, url, operation);
      // HEAD is GET without the body (trpc-to-openapi knows no HEAD).
      const method = req.method === "HEAD" ? "GET" : req.method;
      const createContext = () => createRestContext(services, req.headers, scope);
      result = finalize(await invoke(req, method, target, body, createContext, scope.requestId), req, url, scope.requestId);
    }
  } catch (error) {
    const trpcError = error instanceof TRPCError ? error : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error });
    if (!(error instanceof TRPCError)) console.error(`[rest] ${req.method} ${url.pathname} failed (request ${scope.requestId}):`, error);
    result = problemAnswer({ ...problemFromError(trpcError, scope.requestId), instance: url.pathname });
  }
  withScopeHeaders(result, scope, req.method === "HEAD");
  if (services.config.accessLog) {
    console.info(`[rest] ${req.method} ${url.pathname} ${result.status} ${Math.round(performance.now() - started)}ms ${scope.requestId}`);
  }
  return result;
}

/**
 * The operation a request names, or the answer when it names none: 404 for an unknown path, 405 with
 * `Allow` for a known path and another method, and 204 with `Allow` for OPTIONS.
 */
function route(method: string, pathname: string, requestId: string): { operation: RestOperation } | { answer: ApiAnswer } {
  if (!REST_PREFIXES.some((p) => pathname.startsWith(p))) throw new TRPCError({ code: "NOT_FOUND", message: `No endpoint at ${pathname}.` });
  const operations = operationsAt(pathname.slice("/api/v1".length));
  if (!operations.length) throw new TRPCError({ code: "NOT_FOUND", message: `No endpoint at ${pathname}.` });
  const allow = allowHeader(operations);
  if (method === "OPTIONS") return { answer: answer(204, { allow }) };
  const operation = operations.find((o) => o.method === (method === "HEAD" ? "GET" : method));
  if (operation) return { operation };
  const refused = problemAnswer({
    ...problemFromError(new TRPCError({ code: "METHOD_NOT_SUPPORTED", message: `${method} is not allowed here; allowed: ${allow}.` }), requestId),
    instance: pathname,
  });
  refused.headers.set("allow", allow);
  return { answer: refused };
}

/** Every answer carries the request id and the headers the procedure set (RateLimit), whatever its status. */
function withScopeHeaders(result: ApiAnswer, scope: RequestScope, head: boolean): void {
  scope.responseHeaders.forEach((value, name) => result.headers.set(name, value));
  result.headers.set(REQUEST_ID_HEADER, scope.requestId);
  if (head) result.body = null;
}

/** A call is not cancelled when its client goes away: it runs to the end, as a write must. */
const NEVER_ABORTED = new AbortController().signal;

/** What trpc-to-openapi's handler answered, before it becomes the one Response of the request. */
type HandlerAnswer = { status: number; headers: Headers; text: string };

/**
 * Runs trpc-to-openapi's handler on the request as it expects it: the path below /api/v1, the body
 * already parsed, and a minimal response object that records the answer.
 */
function invoke(req: ApiRequest, method: string, target: URL, body: unknown, createContext: () => Promise<Context>, requestId: string): Promise<HandlerAnswer> {
  // The body is parsed JSON by now, whatever JSON media type it came as.
  const headers = new Headers(req.headers);
  headers.set("content-type", "application/json");
  headers.set(REQUEST_ID_HEADER, requestId);
  // trpc-to-openapi tells a Fetch Request from Node's by `instanceof Request`, then reads only these.
  const request = Object.create(Request.prototype, {
    url: { value: target.toString() },
    method: { value: method },
    headers: { value: headers },
    body: { value: body },
    signal: { value: NEVER_ABORTED },
  }) as object;
  contexts.set(request, createContext);
  return new Promise((resolve) => {
    const headers = new Headers();
    const res = {
      statusCode: 200,
      setHeader: (name: string, value: string | string[]) => {
        for (const v of [value].flat()) headers.append(name, v);
      },
      end: (text?: string) => resolve({ status: res.statusCode, headers, text: text ?? "" }),
    };
    void openApiHandler(request as never, res as never);
  });
}

/** Request field names are accepted in PascalCase as well as camelCase, at the top level. */
export const camelKey = (key: string) => key.charAt(0).toLowerCase() + key.slice(1);

async function normalizeRequest(req: ApiRequest, url: URL, operation: RestOperation): Promise<{ target: URL; body: Record<string, unknown> | undefined }> {
  const query = new URLSearchParams();
  url.searchParams.forEach((value, key) => query.append(camelKey(key), value));
  checkProjectIdParameter(query, url.pathname);
  const target = new URL(url);
  target.pathname = url.pathname.slice("/api/v1".length);
  target.search = query.toString();

  if (req.method === "GET" || req.method === "HEAD" || req.method === "DELETE") return { target, body: undefined };
  if (operation.binaryBody) return { target, body: await readFileBody(req, operation.binaryBody) };
  const raw = await readLimitedBody(req, () => new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: `The body exceeds ${MAX_BODY_BYTES} bytes.` }));
  let body: Record<string, unknown> = {};
  const empty = !raw.some((byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d);
  if (empty && operation.takesBody) {
    throw toTRPCError(invalidField("(body)", "required", "This operation takes a JSON object body; the request has none."));
  }
  if (!empty) {
    const contentType = (req.headers.get("content-type") ?? "").split(";")[0]!.trim();
    if (!JSON_MEDIA_TYPE.test(contentType)) {
      throw new TRPCError({
        code: "UNSUPPORTED_MEDIA_TYPE",
        message: `Send the body as application/json, text/json or application/*+json${contentType ? `, not ${contentType}` : ""}.`,
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
    } catch (cause) {
      throw new TRPCError({ code: "PARSE_ERROR", message: `The body is not valid JSON: ${(cause as Error).message}`, cause });
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new TRPCError({ code: "BAD_REQUEST", message: "The body must be a JSON object." });
    }
    body = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [camelKey(k), v]));
  }
  return { target, body };
}

/**
 * List endpoints accept the project id as a `ProjectId` query parameter too (the spec lists it); it
 * must name the project of the path, and the path's value is the one used.
 */
function checkProjectIdParameter(query: URLSearchParams, pathname: string) {
  const fromQuery = query.get("projectId");
  if (fromQuery === null) return;
  query.delete("projectId");
  const fromPath = /\/projects\/([^/]+)/.exec(pathname)?.[1];
  if (fromPath && fromQuery !== decodedOrRaw(fromPath)) {
    throw toTRPCError(invalidField("ProjectId", "matches_path", "ProjectId must equal the project id in the path."));
  }
}

const formatBytes = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MB` : `${bytes} bytes`);

/** An upload's body (Meta.binaryBody): the bytes themselves, for the procedure to judge by content, never by Content-Type. */
async function readFileBody(req: ApiRequest, file: NonNullable<RestOperation["binaryBody"]>): Promise<Record<string, unknown>> {
  const contentType = (req.headers.get("content-type") ?? "").split(";")[0]!.trim();
  if (/^multipart\//i.test(contentType)) {
    throw new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message: `Send the file's bytes as the body, not a ${contentType} form.` });
  }
  // Without a credential the answer is a 401 whatever the body: not worth buffering megabytes for.
  if (!bearerToken(req.headers)) return {};
  const tooLarge = () => new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: `${file.what} is larger than ${formatBytes(file.maxBytes)}.` });
  return { [file.field]: await readLimitedBody(req, tooLarge, file.maxBytes) };
}

/** A path segment decoded; one with a malformed escape stays as sent (it then names nothing: 404). */
function decodedOrRaw(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function finalize({ status, headers, text }: HandlerAnswer, req: ApiRequest, url: URL, requestId: string): ApiAnswer {
  if (status >= 400) {
    const { problem } = (JSON.parse(text) as { data?: { problem?: Problem } }).data ?? {};
    // An internal error's detail quotes the request id, which the error formatter has no way to know
    // when the context could not be built (it runs outside withRequestId here): made again with it.
    const known = problem && problem.status !== 500 ? problem : problemFromError(new TRPCError({ code: "INTERNAL_SERVER_ERROR" }), requestId);
    return problemAnswer({ ...known, requestId, instance: url.pathname });
  }
  if (!text) {
    headers.delete("content-type");
    return answer(status, headers);
  }
  headers.set("content-type", `${negotiate(req.headers.get("accept"))}; charset=utf-8`);
  return answer(status, headers, text);
}

/** JSON always; the media type label follows what the client asked for among the three the spec names. */
export function negotiate(accept: string | null): string {
  const offered: readonly string[] = RESPONSE_MEDIA_TYPES;
  const ranges = (accept ?? "*/*")
    .split(",")
    .map((part) => {
      const [type = "", ...params] = part.trim().toLowerCase().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { type: type.trim(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { type } of ranges) {
    if (type === "*/*" || type === "application/*") return "application/json";
    if (offered.includes(type)) return type;
    if (type === "text/*") return "text/plain";
  }
  return "application/json";
}

export function problemAnswer(problem: Problem): ApiAnswer {
  const headers = new Headers({ "content-type": "application/problem+json; charset=utf-8" });
  if (problem.status === 401) headers.set("www-authenticate", 'Bearer realm="referloop"');
  if (problem.status === 503) headers.set("retry-after", String(DATABASE_RETRY_AFTER_S));
  return answer(problem.status, headers, JSON.stringify(problem));
}

export const problemResponse = (problem: Problem): Response => toResponse(problemAnswer(problem));
