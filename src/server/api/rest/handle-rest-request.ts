import { TRPCError } from "@trpc/server";
import { bearerToken, createRestContext, requestScope, type RequestScope, type Services } from "@/server/api/trpc/context";
import { type Problem, problemFromError, toTRPCError } from "@/server/http/problem";
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from "@/server/db/database-unavailable";
import { invalidField } from "@/server/domain/errors";
import { appRouter } from "@/server/api/root";
import { callProcedure } from "@/server/api/trpc/call-procedure";
import { answer, fromFetchRequest, toResponse, type ApiAnswer, type ApiRequest } from "@/server/http/api-exchange";
import { HeaderMap } from "@/server/http/header-map";
import { JSON_MEDIA_TYPE, MAX_BODY_BYTES, readLimitedBody, RESPONSE_MEDIA_TYPES } from "@/server/http/request-body";
import { REQUEST_ID_HEADER } from "@/server/http/request-id";
import type { CsvExport } from "@/server/domain/exports/csv-export";
import { logger } from "@/server/observability/logger";
import { allowHeader, operationsAt, queryInput, type RestOperation } from "./rest-operations";

export { MAX_BODY_BYTES };
const REST_PREFIXES = ["/api/v1/public/", "/api/v1/sdk/"];

/** answerRest for a Fetch Request (the route file, tests). */
export const handleRestRequest = async (req: Request, services: Services): Promise<Response> => toResponse(await answerRest(fromFetchRequest(req), services));

/**
 * The one wrapper around every REST call: it finds the operation, makes the procedure's input of the
 * request as the OpenAPI document (trpc-to-openapi's) describes it, calls the procedure, and closes the
 * gaps between that document's conventions and the spec (JSON media types, PascalCase field names,
 * body size, 201 for creates, problem+json errors, negotiated response types), so no procedure
 * repeats any of it.
 */
export async function answerRest(req: ApiRequest, services: Services): Promise<ApiAnswer> {
  const url = new URL(req.url);
  const scope = requestScope(req.headers);
  let result: ApiAnswer;
  let template: string | undefined;
  try {
    const routed = route(req.method, url.pathname, scope.requestId);
    if ("answer" in routed) {
      result = routed.answer;
    } else {
      const { operation, parameters } = routed;
      template = `/api/v1${operation.template}`;
      const { query, body } = await normalizeRequest(req, url, operation);
      const input = operation.input.none ? undefined : { ...(body ?? queryInput(query, operation.input.listFields)), ...parameters };
      const ctx = await createRestContext(services, req.headers, scope);
      const data = await callProcedure(appRouter, { path: operation.procedure, type: operation.type, ctx, getRawInput: async () => input });
      result = success(operation, data, req);
    }
  } catch (error) {
    const trpcError = error instanceof TRPCError ? error : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error });
    const problem = problemFromError(trpcError, scope.requestId);
    if (problem.status >= 500) logFailure(req.method, template ?? "/api/v1/*", scope.requestId, trpcError);
    result = problemAnswer({ ...problem, instance: url.pathname });
  }
  withScopeHeaders(result, scope, req.method === "HEAD");
  if (template) result.route = template;
  return result;
}

/**
 * The operation a request names, or the answer when it names none: 404 for an unknown path, 405 with
 * `Allow` for a known path and another method, and 204 with `Allow` for OPTIONS.
 */
function route(method: string, pathname: string, requestId: string): ReturnType<typeof operationsAt>[number] | { answer: ApiAnswer } {
  if (!REST_PREFIXES.some((p) => pathname.startsWith(p))) throw new TRPCError({ code: "NOT_FOUND", message: `No endpoint at ${pathname}.` });
  const operations = operationsAt(pathname.slice("/api/v1".length));
  if (!operations.length) throw new TRPCError({ code: "NOT_FOUND", message: `No endpoint at ${pathname}.` });
  // HEAD is GET without the body.
  const found = operations.find((o) => o.operation.method === (method === "HEAD" ? "GET" : method));
  if (found) return found;
  const allow = allowHeader(operations.map((o) => o.operation));
  if (method === "OPTIONS") return { answer: answer(204, { allow }) };
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

/** An internal error is logged under the request id its problem quotes; an unavailable database in one line, not a stack trace each. */
function logFailure(method: string, route: string, requestId: string, error: TRPCError) {
  if (isDatabaseUnavailable(error.cause)) logger().warn({ method, route, requestId }, "the database is unavailable");
  else logger().error({ err: error.cause ?? error, method, route, requestId }, "REST call failed");
}

/** Request field names are accepted in PascalCase as well as camelCase, at the top level. */
export const camelKey = (key: string) => key.charAt(0).toLowerCase() + key.slice(1);

async function normalizeRequest(req: ApiRequest, url: URL, operation: RestOperation): Promise<{ query: URLSearchParams; body: Record<string, unknown> | undefined }> {
  const query = new URLSearchParams();
  url.searchParams.forEach((value, key) => query.append(camelKey(key), value));
  checkProjectIdParameter(query, url.pathname);

  if (req.method === "GET" || req.method === "HEAD" || req.method === "DELETE") return { query, body: undefined };
  if (operation.binaryBody) return { query, body: await readFileBody(req, operation.binaryBody) };
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
  return { query, body };
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

/** A procedure's result as the operation answers it: JSON, or no body for none, or a file; a secret never cached. */
function success(operation: RestOperation, data: unknown, req: ApiRequest): ApiAnswer {
  if (operation.download) return download(operation.download, data as CsvExport);
  const headers = new HeaderMap(operation.secret ? { "cache-control": "no-store" } : {});
  if (data === undefined) return answer(operation.status, headers);
  headers.set("content-type", `${negotiate(req.headers.get("accept"))}; charset=utf-8`);
  return answer(operation.status, headers, JSON.stringify(data));
}

/** A file as an attachment, streamed as its chunks are produced (with backpressure: see send-answer.ts). */
function download(mediaType: NonNullable<RestOperation["download"]>, file: CsvExport): ApiAnswer {
  const headers = new HeaderMap({
    "content-type": `${mediaType}; charset=utf-8`,
    "content-disposition": `attachment; filename="${file.filename}"`,
    "cache-control": "no-store",
  });
  return { status: 200, headers, body: file.chunks };
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
  const headers = new HeaderMap({ "content-type": "application/problem+json; charset=utf-8" });
  if (problem.status === 401) headers.set("www-authenticate", 'Bearer realm="referloop"');
  if (problem.status === 503) headers.set("retry-after", String(DATABASE_RETRY_AFTER_S));
  return answer(problem.status, headers, JSON.stringify(problem));
}

export const problemResponse = (problem: Problem): Response => toResponse(problemAnswer(problem));
