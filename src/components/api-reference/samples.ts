import type { HttpMethod, JsonSchema, OpenApiDocument, Operation, Parameter, PathItem } from "./openapi-types";
import { deref, resolveSchema } from "./resolve";

/*
 * Request and answer samples for one operation, made from the document's own examples: a curl
 * command a reader can paste (credentials as shell variables), and the success answer's example.
 */

/** The shell variable each security scheme's credential is read from in a sample. */
const CREDENTIAL_VARIABLE: Record<string, string> = { ApiKey: "REFERLOOP_API_KEY", ProjectKey: "REFERLOOP_PROJECT_KEY", ProjectSecret: "REFERLOOP_PROJECT_SECRET" };

/** A value as the first example the document gives for it: on the parameter, its schema, or the referenced schema. */
function exampleOf(doc: OpenApiDocument, schema: JsonSchema | undefined, own?: unknown): unknown {
  if (own !== undefined) return own;
  if (!schema) return undefined;
  const resolved = resolveSchema(doc, schema).schema;
  return resolved.example ?? resolved.examples?.[0] ?? schema.examples?.[0];
}

/** Single-quoted for a POSIX shell: nothing inside is expanded. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function parametersOf(doc: OpenApiDocument, op: Operation, pathItem: PathItem): Parameter[] {
  const own = (op.parameters ?? []).map((p) => deref(doc, p)).filter((p): p is Parameter => Boolean(p));
  const inherited = (pathItem.parameters ?? []).map((p) => deref(doc, p)).filter((p): p is Parameter => Boolean(p) && !own.some((o) => o.name === p?.name && o.in === p?.in));
  return [...inherited, ...own];
}

/** The curl command for the operation: path and required query parameters from their examples, the credential header, the example body. */
export function curlSample(doc: OpenApiDocument, baseUrl: string, method: HttpMethod, path: string, op: Operation, pathItem: PathItem): string {
  const params = parametersOf(doc, op, pathItem);
  const filled = path.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const p = params.find((x) => x.in === "path" && x.name === name);
    const value = exampleOf(doc, p?.schema, p?.example);
    return value === undefined ? whole : encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const p of params.filter((x) => x.in === "query" && x.required)) {
    const value = exampleOf(doc, p.schema, p.example);
    if (value !== undefined) query.append(p.name, String(value));
  }
  const url = `${baseUrl}${filled}${query.size ? `?${query}` : ""}`;
  const lines = [`curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} ${shellQuote(url)}`];
  for (const requirement of (op.security ?? doc.security ?? []).slice(0, 1)) {
    for (const name of Object.keys(requirement)) {
      const scheme = doc.components?.securitySchemes?.[name];
      const variable = `$${CREDENTIAL_VARIABLE[name] ?? name.toUpperCase()}`;
      if (scheme?.type === "http" && scheme.scheme?.toLowerCase() === "bearer") lines.push(`-H "Authorization: Bearer ${variable}"`);
      else if (scheme?.type === "apiKey" && (scheme.in ?? "header") === "header") lines.push(`-H "${scheme.name ?? name}: ${variable}"`);
    }
  }
  const body = op.requestBody ? deref(doc, op.requestBody) : undefined;
  const json = body?.content?.["application/json"];
  if (json) {
    const example = exampleOf(doc, json.schema, json.example);
    lines.push(`-H "Content-Type: application/json"`);
    if (example !== undefined) lines.push(`-d ${shellQuote(JSON.stringify(example, null, 2))}`);
  } else if (body?.content) {
    const [type] = Object.keys(body.content);
    if (type) lines.push(`-H "Content-Type: ${type}"`, `--data-binary @file`);
  }
  return lines.join(" \\\n  ");
}

/** The first success answer: its status, media type and example (pretty JSON), or null when the document gives none. */
export function answerSample(doc: OpenApiDocument, op: Operation): { status: string; type: string | null; body: string | null } | null {
  const entry = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith("2"));
  if (!entry) return null;
  const [status, ref] = entry;
  const response = deref(doc, ref);
  const [type, media] = Object.entries(response?.content ?? {})[0] ?? [null, undefined];
  if (!type) return { status, type: null, body: null };
  const example = exampleOf(doc, media?.schema, media?.example);
  return { status, type, body: example === undefined ? null : typeof example === "string" ? example : JSON.stringify(example, null, 2) };
}
