
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { MAX_BODY_BYTES } from "@/server/api/rest/handle-rest-request";
import { procedureMeta } from "@/server/api/procedure-meta";
import { appRouter } from "@/server/api/root";

type SchemaObject = NonNullable<NonNullable<OpenAPIObject["components"]>["schemas"]>[string];

type Operation = {
  operationId?: string;
  requestBody?: unknown;
  parameters?: unknown[];
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
};

const STATUS_TEXT = { 200: "OK", 201: "Created", 202: "Accepted" } as const;

const problemRef = { $ref: "#/components/schemas/Problem" };
const problemResponse = (description: string) => ({ description, content: { "application/problem+json": { schema: problemRef } } });

const PROBLEM_SCHEMA: SchemaObject = {
  type: "object",
  description: "RFC 9457 problem details. Validation problems list every failing field in `errors`.",
  required: ["type", "title", "status", "detail"],
  properties: {
    type: { type: "string", description: "Stable identifier of the problem kind, e.g. `urn:referloop:problem:validation`." },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string", description: "Human-readable explanation naming the failing fields." },
    instance: { type: "string", description: "The request path." },
    errors: {
      type: "array",
      items: {
        type: "object",
        required: ["field", "rule", "message"],
        properties: {
          field: { type: "string", description: "Dotted path of the field, e.g. `name` or `referrerExperience.theme.tintAlpha`." },
          rule: { type: "string", description: "The rule it broke, e.g. `too_small`, `invalid_type`, `unique`." },
          message: { type: "string" },
        },
      },
    },
  },
};

const API_DESCRIPTION = `
The Referloop REST API. Backends call \`/api/v1/public/...\` with \`Authorization: Bearer <API key>\`.

**Conventions**
- Request bodies: \`application/json\`, \`text/json\` or \`application/*+json\`, at most ${MAX_BODY_BYTES / 1024} KiB (larger: 413; other media types: 415).
- Top-level request field names and query parameter names are accepted in camelCase or PascalCase (\`name\` or \`Name\`). Unknown fields are ignored.
- Responses are JSON. Ask with \`Accept: text/json\` or \`text/plain\` to have the same JSON labelled with that media type.
- Errors are \`application/problem+json\` (RFC 9457); validation errors list each failing field and rule in \`errors\`.
- 401: the key is missing, malformed, unknown, deleted or past its \`expiresAt\`.
- 404: the resource does not exist **or belongs to another organisation**; the two are indistinguishable.
- Creates answer 201 with the created record; deletes answer 200 with an empty body.
- Projects: \`appType\` defaults to \`Web\` and cannot change after creation (a PUT with a different value is a 400).
  \`referralRedirectLink\` must be an absolute http(s) URL without query or fragment (the service appends \`referralCode\`); https only when the service runs in production mode.
`.trim();

/** The OpenAPI 3.1.1 document of the REST surface, generated from the same procedures the dashboard calls. */
export function buildOpenApiDocument(origin: string): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: "Referloop API",
    description: API_DESCRIPTION,
    version: "v1",
    openApiVersion: "3.1.0",
    baseUrl: `${origin}/api/v1`,
    securitySchemes: {
      ApiKey: { type: "http", scheme: "bearer", description: "An organisation API key (`rl_...`), created in the dashboard." },
    },
  });
  doc.openapi = "3.1.1";
  const schemas = (doc.components ??= {}).schemas ?? {};
  for (const name of Object.keys(schemas)) if (name.startsWith("error.")) delete schemas[name];
  doc.components.schemas = { ...schemas, Problem: PROBLEM_SCHEMA };

  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const op of Object.values(item as Record<string, Operation>)) {
      const meta = procedureMeta(op.operationId?.replaceAll("-", ".") ?? "");
      const responses: Operation["responses"] = {};
      for (const [status, response] of Object.entries(op.responses)) {
        if (status === "200") {
          // A void output comes out as an empty schema: that operation answers with no body.
          const schema = response.content?.["application/json"]?.schema;
          const success = schema && Object.keys(schema).length ? schema : undefined;
          const status = meta?.status ?? 200;
          responses[String(status)] = success
            ? { description: STATUS_TEXT[status], content: { "application/json": { schema: success } } }
            : { description: "OK. The body is empty." };
        }
      }
      responses["400"] = problemResponse("The request is not valid: the problem names each failing field and rule.");
      responses["401"] = problemResponse("Missing, malformed, unknown or expired API key.");
      if (path.includes("{")) responses["404"] = problemResponse("Not found, or owned by another organisation.");
      if (op.requestBody) {
        responses["413"] = problemResponse(`The body exceeds ${MAX_BODY_BYTES} bytes.`);
        responses["415"] = problemResponse("The body is not JSON.");
      }
      for (const status of meta?.errors ?? []) responses[String(status.status)] = problemResponse(status.description);
      op.responses = responses;
    }
  }
  return doc;
}
