import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { OpenAPIObject } from "trpc-to-openapi";
import { REQUEST_ID_PATTERN } from "@/server/http/request-id";

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is walked as plain JSON */

export type ObservedResponse = { method: string; url: string; status: number; headers: Headers; text: string };

/**
 * Checks live responses against the OpenAPI document, as a client generated from it would expect
 * them: the operation's declared status, media type and schema (ajv, JSON Schema 2020-12, formats
 * on), and the headers every answer carries. Returns what contradicts the document; [] when nothing.
 */
export function documentChecker(doc: OpenAPIObject) {
  const json = doc as any;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "doc", components: json.components }, "doc");
  const compiled = new Map<string, ValidateFunction>();
  const compile = (schema: unknown) => {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/');
    let validate = compiled.get(text);
    if (!validate) compiled.set(text, (validate = ajv.compile(JSON.parse(text))));
    return validate;
  };
  const base = new URL(json.servers[0].url).pathname;
  const operations = Object.entries<Record<string, any>>(json.paths).flatMap(([template, item]) =>
    Object.entries<any>(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      pattern: new RegExp(`^${base}${template.replace(/\{\w+\}/g, "[^/]+")}/?$`),
      op,
    })),
  );

  return function check(res: ObservedResponse): string[] {
    const { pathname } = new URL(res.url, "http://localhost");
    const where = `${res.method} ${pathname} ${res.status}`;
    const problems: string[] = [];
    const requestId = res.headers.get("x-request-id");
    if (!requestId || !REQUEST_ID_PATTERN.test(requestId)) problems.push(`${where}: X-Request-Id missing or malformed (${requestId})`);
    if (res.status >= 500) problems.push(`${where}: a 5xx answer`);
    const contentType = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
    if (res.status >= 400 && contentType !== "application/problem+json") problems.push(`${where}: an error that is not problem+json (${contentType})`);
    if (res.status === 429 && !res.headers.get("retry-after")) problems.push(`${where}: a 429 without Retry-After`);

    const method = res.method === "HEAD" ? "GET" : res.method;
    const atPath = operations.filter((o) => o.pattern.test(pathname));
    const operation = atPath.find((o) => o.method === method);
    if (!operation) {
      // Undocumented on purpose: what no operation answers (unknown paths, other methods, OPTIONS).
      if (![404, 405].includes(res.status) && !(res.method === "OPTIONS" && res.status === 204)) problems.push(`${where}: no operation in the document`);
      return problems;
    }
    const response = operation.op.responses[String(res.status)];
    if (!response) return [...problems, `${where}: status not declared for ${operation.method} (declared: ${Object.keys(operation.op.responses).join(", ")})`];
    if (res.method === "HEAD" || !response.content) {
      if (res.text && res.method !== "HEAD") problems.push(`${where}: a body where the document declares none`);
      return problems;
    }
    const media = response.content[contentType];
    if (!media) return [...problems, `${where}: media type ${contentType} not declared (${Object.keys(response.content).join(", ")})`];
    // A file (text/csv): text whatever it holds; its content is the operation's own tests' business.
    if (media.schema?.type === "string" && contentType.startsWith("text/")) return problems;
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      return [...problems, `${where}: the body is not JSON`];
    }
    const validate = compile(media.schema);
    if (!validate(body)) problems.push(`${where}: ${ajv.errorsText(validate.errors)} in ${res.text.slice(0, 300)}`);
    return problems;
  };
}
