import type { ZodType } from "zod";
import { appRouter } from "@/server/api/root";
import type { Meta } from "@/server/api/trpc";

/** A REST operation as the router declares it (its procedure's `openapi` meta), for the REST wrapper. */
export type RestOperation = {
  method: string;
  /** The path below /api/v1, e.g. `/public/projects/{projectId}`. */
  template: string;
  /** The procedure's dotted path, e.g. `projects.update`. */
  procedure: string;
  /** The request has a JSON body (fields besides the path's ids): a request without one is a 400. */
  takesBody: boolean;
  /** The body is a file's bytes, not JSON (Meta.binaryBody). */
  binaryBody?: Meta["binaryBody"];
};

type ProcedureLike = { _def: { meta?: Meta; inputs: ZodType[] } };

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

export const REST_OPERATIONS: readonly RestOperation[] = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureLike>).flatMap(
  ([procedure, { _def }]) => {
    const openapi = _def.meta?.openapi;
    if (!openapi || openapi.enabled === false) return [];
    const pathParameters = [...openapi.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const fields = _def.inputs.flatMap((input) => Object.keys((input as { shape?: object }).shape ?? {}));
    const takesBody = BODY_METHODS.has(openapi.method) && fields.some((field) => !pathParameters.includes(field));
    return [{ method: openapi.method, template: openapi.path, procedure, takesBody, binaryBody: _def.meta?.binaryBody }];
  },
);

const patterns = REST_OPERATIONS.map((operation) => ({
  operation,
  pattern: new RegExp(`^${operation.template.replace(/\{\w+\}/g, "[^/]+")}/?$`),
}));

/** The operations at a path below /api/v1 (one per method). */
export const operationsAt = (path: string): RestOperation[] => patterns.filter((p) => p.pattern.test(path)).map((p) => p.operation);

/** The `Allow` header of a path: its methods, HEAD with GET, and OPTIONS. */
export function allowHeader(operations: readonly RestOperation[]): string {
  const methods = new Set(operations.map((o) => o.method));
  if (methods.has("GET")) methods.add("HEAD");
  methods.add("OPTIONS");
  const order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
  return order.filter((m) => methods.has(m)).join(", ");
}
