import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { bearerToken, createRestContext, type Services } from "@/server/api/context";
import { type Problem, problemFromError, toTRPCError } from "@/server/api/problem";
import { invalidField } from "@/server/domain/errors";
import { appRouter } from "@/server/api/root";
import { allProcedureMeta, procedureMeta } from "@/server/api/procedure-meta";
import type { Context } from "@/server/api/trpc";

/** Largest accepted request body (documented in the API reference). */
export const MAX_BODY_BYTES = 256 * 1024;
const JSON_MEDIA_TYPE = /^(application\/([\w.-]+\+)?json|text\/json)$/i;
const REST_PREFIXES = ["/api/v1/public/", "/api/v1/sdk/"];

/**
 * The operations whose body is raw bytes rather than JSON (Meta.binaryBody: the icon upload), found
 * by method and path. Every other body keeps the JSON rules and MAX_BODY_BYTES.
 */
const binaryOperations = allProcedureMeta().flatMap(({ openapi, binaryBody }) => {
  if (!openapi || !binaryBody) return [];
  const pattern = new RegExp(`^/api/v1${openapi.path.replace(/\{\w+\}/g, "[^/]+")}$`);
  return [{ method: openapi.method, pattern, ...binaryBody }];
});

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
    if (getHTTPStatusCodeFromError(error) >= 500) console.error(`[rest] ${req.method} ${path ?? req.url} failed:`, error.cause ?? error);
  },
});

/**
 * The one wrapper around every REST call: it closes the gaps between trpc-to-openapi and the spec
 * (JSON media types, PascalCase field names, body size, 201 for creates, problem+json errors,
 * negotiated response types), so no procedure repeats any of it.
 */
export async function handleRestRequest(req: Request, services: Services): Promise<Response> {
  const url = new URL(req.url);
  const started = performance.now();
  let response: Response;
  try {
    if (!REST_PREFIXES.some((p) => url.pathname.startsWith(p))) throw new TRPCError({ code: "NOT_FOUND", message: `No endpoint at ${url.pathname}.` });
    const { target, body } = await normalizeRequest(req, url);
    response = await finalize(await invoke(req, target, body, () => createRestContext(services, req.headers)), req, url);
  } catch (error) {
    const trpcError = error instanceof TRPCError ? error : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error });
    if (!(error instanceof TRPCError)) console.error(`[rest] ${req.method} ${url.pathname} failed:`, error);
    response = problemResponse({ ...problemFromError(trpcError), instance: url.pathname });
  }
  if (services.config.accessLog) {
    console.info(`[rest] ${req.method} ${url.pathname} ${response.status} ${Math.round(performance.now() - started)}ms`);
  }
  return response;
}

/**
 * Runs trpc-to-openapi's handler on the request as it expects it: the path below /api/v1, the body
 * already parsed, and a minimal response object that becomes a fetch Response.
 */
function invoke(req: Request, target: URL, body: unknown, createContext: () => Promise<Context>): Promise<Response> {
  // The body is parsed JSON by now, whatever JSON media type it came as.
  const headers = new Headers(req.headers);
  headers.set("content-type", "application/json");
  const request = new Proxy(req, {
    get: (original, prop) => {
      if (prop === "url") return target.toString();
      if (prop === "body") return body;
      if (prop === "headers") return headers;
      const value = Reflect.get(original, prop, original);
      return typeof value === "function" ? value.bind(original) : value;
    },
  });
  contexts.set(request, createContext);
  return new Promise((resolve) => {
    const responseHeaders = new Headers();
    const res = {
      statusCode: 200,
      setHeader: (name: string, value: string | string[]) => {
        for (const v of [value].flat()) responseHeaders.append(name, v);
      },
      end: (text?: string) => resolve(new Response(text ?? null, { status: res.statusCode, headers: responseHeaders })),
    };
    void openApiHandler(request as never, res as never);
  });
}

/** Request field names are accepted in PascalCase as well as camelCase, at the top level. */
export const camelKey = (key: string) => key.charAt(0).toLowerCase() + key.slice(1);

async function normalizeRequest(req: Request, url: URL): Promise<{ target: URL; body: Record<string, unknown> | undefined }> {
  const query = new URLSearchParams();
  url.searchParams.forEach((value, key) => query.append(camelKey(key), value));
  checkProjectIdParameter(query, url.pathname);
  const target = new URL(url);
  target.pathname = url.pathname.slice("/api/v1".length);
  target.search = query.toString();

  if (req.method === "GET" || req.method === "HEAD" || req.method === "DELETE") return { target, body: undefined };
  const contentType = (req.headers.get("content-type") ?? "").split(";")[0]!.trim();
  const binary = binaryOperations.find((op) => op.method === req.method && op.pattern.test(url.pathname));
  if (binary) {
    if (/^multipart\//i.test(contentType)) {
      throw new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message: `Send the file's bytes as the body, not a ${contentType} form.` });
    }
    // Without a credential the answer is a 401 whatever the body: not worth buffering megabytes for.
    if (!bearerToken(req.headers)) return { target, body: {} };
    // The bytes themselves: what they are is for the procedure to judge, never the Content-Type.
    return { target, body: { [binary.field]: await readBody(req, binary.maxBytes, `${binary.what} is larger than ${formatBytes(binary.maxBytes)}.`) } };
  }
  const raw = await readBody(req);
  let body: Record<string, unknown> = {};
  if (raw.length) {
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
  if (fromPath && fromQuery !== decodeURIComponent(fromPath)) {
    throw toTRPCError(invalidField("ProjectId", "matches_path", "ProjectId must equal the project id in the path."));
  }
}

const formatBytes = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MB` : `${bytes} bytes`);

/** Reads at most `limit` bytes, refusing larger bodies without buffering them. */
async function readBody(req: Request, limit = MAX_BODY_BYTES, message = `The body exceeds ${MAX_BODY_BYTES} bytes.`): Promise<Uint8Array> {
  const tooLarge = () => new TRPCError({ code: "PAYLOAD_TOO_LARGE", message });
  if (Number(req.headers.get("content-length") ?? 0) > limit) throw tooLarge();
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function finalize(res: Response, req: Request, url: URL): Promise<Response> {
  const text = await res.text();
  if (res.status >= 400) {
    const body = JSON.parse(text) as { data?: { problem?: Problem } };
    const problem = body.data?.problem ?? problemFromError(new TRPCError({ code: "INTERNAL_SERVER_ERROR" }));
    return problemResponse({ ...problem, instance: url.pathname });
  }
  const headers = new Headers(res.headers);
  if (!text) {
    headers.delete("content-type");
    return new Response(null, { status: res.status, headers });
  }
  headers.set("content-type", `${negotiate(req.headers.get("accept"))}; charset=utf-8`);
  return new Response(text, { status: res.status, headers });
}

/** JSON always; the media type label follows what the client asked for among the three the spec names. */
export function negotiate(accept: string | null): string {
  const offered = ["application/json", "text/json", "text/plain"];
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

export function problemResponse(problem: Problem): Response {
  const headers = new Headers({ "content-type": "application/problem+json; charset=utf-8" });
  if (problem.status === 401) headers.set("www-authenticate", 'Bearer realm="referloop"');
  return new Response(JSON.stringify(problem), { status: problem.status, headers });
}
