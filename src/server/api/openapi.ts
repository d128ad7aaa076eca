
import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { API_DESCRIPTION } from "@/server/api/api-description";
import { MAX_BODY_BYTES } from "@/server/api/rest/handle-rest-request";
import { procedureMeta } from "@/server/api/procedure-meta";
import { appRouter } from "@/server/api/root";
import { API_KEY_ROLES } from "@/lib/schemas/accounts";
import { can, PERMISSIONS } from "@/lib/permissions";
import type { Meta } from "@/server/api/trpc";
import { PROJECT_KEY_HEADER, PROJECT_SECRET_HEADER } from "@/lib/schemas/sdk";

type SchemaObject = NonNullable<NonNullable<OpenAPIObject["components"]>["schemas"]>[string];

type Operation = {
  operationId?: string;
  description?: string;
  requestBody?: unknown;
  parameters?: unknown[];
  security?: Record<string, string[]>[];
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


const SCHEME = { apiKey: "ApiKey", projectKey: "ProjectKey", projectSecret: "ProjectSecret" } as const;
const SDK_UNAUTHORIZED: Record<NonNullable<Meta["sdkCredential"]>, string> = {
  projectKey: `Missing or unknown key in ${PROJECT_KEY_HEADER}, a browser origin the project does not allow, or (identity verification) a missing or wrong \`userHash\`.`,
  projectSecret: `Missing or unknown secret in ${PROJECT_SECRET_HEADER}, a publishable key, or a request from a browser (with an Origin header).`,
};

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
      ProjectKey: {
        type: "apiKey",
        in: "header",
        name: PROJECT_KEY_HEADER,
        description: "Client library: the project's publishable key (`pk_...`, safe in a web page or app) or its secret (`sk_...`, backends).",
      },
      ProjectSecret: { type: "apiKey", in: "header", name: PROJECT_SECRET_HEADER, description: "Client library, backend calls: the project secret (`sk_...`)." },
    },
  });
  doc.openapi = "3.1.1";
  const schemas = (doc.components ??= {}).schemas ?? {};
  for (const name of Object.keys(schemas)) if (name.startsWith("error.")) delete schemas[name];
  doc.components.schemas = { ...schemas, Problem: PROBLEM_SCHEMA };

  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const op of Object.values(item as Record<string, Operation>)) {
      const meta = procedureMeta(op.operationId?.replaceAll("-", ".") ?? "");
      if (meta?.binaryBody && op.requestBody) {
        // The body is the file itself: each declared media type carries raw bytes, not an object.
        const types = meta.openapi?.contentTypes ?? ["application/octet-stream"];
        op.requestBody = {
          required: true,
          description: `The file's bytes, at most ${meta.binaryBody.maxBytes} bytes.`,
          content: Object.fromEntries(types.map((type) => [type, { schema: { type: "string", contentMediaType: type } }])),
        };
      }
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
      responses["401"] = problemResponse(meta?.sdkCredential ? SDK_UNAUTHORIZED[meta.sdkCredential] : "Missing, malformed, unknown or expired API key.");
      // Each operation takes one credential (the generator lists every scheme on every operation).
      if (op.security) op.security = [{ [SCHEME[meta?.sdkCredential ?? "apiKey"]]: [] }];
      if (path.includes("{")) responses["404"] = problemResponse("Not found, or owned by another organisation.");
      if (op.requestBody && !meta?.binaryBody) {
        responses["413"] = problemResponse(`The body exceeds ${MAX_BODY_BYTES} bytes.`);
        responses["415"] = problemResponse("The body is not JSON.");
      }
      if (meta?.permission) {
        // The permission table, per operation: which key roles may call it (the same check as the dashboard's).
        const roles = API_KEY_ROLES.filter((role) => can(role, meta.permission!));
        responses["403"] = problemResponse(`The API key's role does not allow this operation (allowed: ${roles.join(", ")}).`);
        op.description = [op.description, `Permission \`${meta.permission}\` (${PERMISSIONS[meta.permission].label.toLowerCase()}): keys with the role ${roles.map((r) => `\`${r}\``).join(", ")}.`]
          .filter(Boolean)
          .join("\n\n");
      }
      for (const status of meta?.errors ?? []) responses[String(status.status)] = problemResponse(status.description);
      op.responses = responses;
    }
  }
  return doc;
}
