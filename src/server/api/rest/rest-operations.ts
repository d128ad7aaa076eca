import {
  coerceSchema,
  getInputOutputParsers,
  instanceofZodTypeKind,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  unwrapZodType,
} from "trpc-to-openapi";
import type { ZodObject, ZodType } from "zod";
import { appRouter } from "@/server/api/root";
import type { Meta } from "@/server/api/trpc/procedures";

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
  /** The answer is a file streamed as it is produced (Meta.download). */
  download?: Meta["download"];
  /** The procedure's kind, as tRPC calls it. */
  type: "query" | "mutation";
  /** The success status (Meta.status, else 200), and whether the answer carries a secret (Meta.secret). */
  status: number;
  secret: boolean;
  /**
   * How the input is made of the request, as trpc-to-openapi's document describes it: none for a
   * procedure without input; else the body's or the query's fields, and the path's parameters, with
   * the query fields that are lists always given as lists.
   */
  input: { none: true } | { none: false; listFields: readonly string[] };
};

type ProcedureLike = { _def: { meta?: Meta; inputs: ZodType[]; type: "query" | "mutation" } };

/**
 * The input conventions of trpc-to-openapi's document: a query's (and, as it does, a body's) plain
 * numbers and booleans are coerced from text, applied once here, as its own handler would on each
 * call; and a list field sent once in the query is still a list.
 */
function inputOf(procedure: ProcedureLike): RestOperation["input"] {
  const schema = unwrapZodType(getInputOutputParsers(procedure as never).inputParser, true);
  if (instanceofZodTypeLikeVoid(schema)) return { none: true };
  if (!instanceofZodTypeObject(schema)) return { none: false, listFields: [] };
  coerceSchema(schema);
  const isList = (field: ZodType) =>
    instanceofZodTypeKind(field, "array") || (instanceofZodTypeOptional(field) && instanceofZodTypeKind(field.unwrap(), "array"));
  return { none: false, listFields: Object.entries((schema as ZodObject).shape).filter(([, field]) => isList(field)).map(([name]) => name) };
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

export const REST_OPERATIONS: readonly RestOperation[] = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureLike>).flatMap(
  ([procedure, definition]) => {
    const { _def } = definition;
    const openapi = _def.meta?.openapi;
    if (!openapi || openapi.enabled === false) return [];
    const pathParameters = [...openapi.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const fields = _def.inputs.flatMap((input) => Object.keys((input as { shape?: object }).shape ?? {}));
    const takesBody = BODY_METHODS.has(openapi.method) && !_def.meta?.optionalBody && fields.some((field) => !pathParameters.includes(field));
    return [
      {
        method: openapi.method,
        template: openapi.path,
        procedure,
        takesBody,
        binaryBody: _def.meta?.binaryBody,
        download: _def.meta?.download,
        type: _def.type,
        status: _def.meta?.status ?? 200,
        secret: _def.meta?.secret === true,
        input: inputOf(definition),
      },
    ];
  },
);

/** A template's segments: literal text, or the name of a parameter (`{projectId}`). */
type Segment = string | { parameter: string };
const segmentsOf = (path: string): string[] => (path.endsWith("/") ? path.slice(0, -1) : path).split("/");

/**
 * The operations by their number of path segments, each template split into its segments: a request
 * compares a handful of templates segment by segment (trying every template's regular expression
 * was 3% of a GET's CPU in a profile, and the few with the path's length still 2%).
 */
const templatesBySegments = new Map<number, { operation: RestOperation; segments: Segment[] }[]>();
for (const operation of REST_OPERATIONS) {
  const segments = segmentsOf(operation.template).map((s): Segment => (/^\{\w+\}$/.test(s) ? { parameter: s.slice(1, -1) } : s));
  templatesBySegments.set(segments.length, [...(templatesBySegments.get(segments.length) ?? []), { operation, segments }]);
}

/** The operations at a path below /api/v1 (one per method), each with the path's parameters, still percent-encoded. */
export function operationsAt(path: string): { operation: RestOperation; parameters: Record<string, string> }[] {
  const parts = segmentsOf(path);
  const found: { operation: RestOperation; parameters: Record<string, string> }[] = [];
  for (const { operation, segments } of templatesBySegments.get(parts.length) ?? []) {
    const parameters: Record<string, string> = {};
    const matches = segments.every((segment, i) => (typeof segment === "string" ? segment === parts[i] : parts[i] !== "" && ((parameters[segment.parameter] = parts[i]!), true)));
    if (matches) found.push({ operation, parameters });
  }
  return found;
}

/**
 * A query's fields as an input: a name given once is a value, given more than once a list of them,
 * and a list field is a list however often it is given.
 */
export function queryInput(query: URLSearchParams, listFields: readonly string[]): Record<string, string | string[]> {
  const input: Record<string, string | string[]> = {};
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    input[name] = values.length > 1 || listFields.includes(name) ? values : values[0]!;
  }
  return input;
}

/** The `Allow` header of a path: its methods, HEAD with GET, and OPTIONS. */
export function allowHeader(operations: readonly RestOperation[]): string {
  const methods = new Set(operations.map((o) => o.method));
  if (methods.has("GET")) methods.add("HEAD");
  methods.add("OPTIONS");
  const order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
  return order.filter((m) => methods.has(m)).join(", ");
}
