import { EXAMPLE } from "@/lib/schemas/examples";
import { PROBLEM_TYPES, problemType, type Problem, type ProblemSlug } from "@/server/http/problem";

/** The Problem schema of the document: RFC 9457, with the catalogue of `type` values and their meaning. */
export const PROBLEM_SCHEMA = {
  type: "object",
  description: "RFC 9457 problem details. Validation problems list every failing field in `errors`.",
  required: ["type", "title", "status", "detail"],
  properties: {
    type: {
      description: "Stable identifier of the problem kind.",
      oneOf: Object.entries(PROBLEM_TYPES).map(([slug, { status, meaning }]) => ({
        const: problemType(slug as ProblemSlug),
        description: `${status}: ${meaning}`,
      })),
    },
    title: { type: "string" },
    status: { type: "integer", minimum: 400, maximum: 599 },
    detail: { type: "string", description: "Human-readable explanation naming the failing fields." },
    instance: { type: "string", description: "The request path." },
    requestId: { type: "string", description: "The request's `X-Request-Id`: quote it when reporting a problem." },
    errors: {
      type: "array",
      items: {
        type: "object",
        required: ["field", "rule", "message"],
        properties: {
          field: { type: "string", description: "Dotted path of the field, e.g. `name`, `attributes.plan` or `referrerExperience.theme.tintAlpha`; `(body)` for the body as a whole." },
          rule: { type: "string", description: "The rule it broke, e.g. `too_small`, `invalid_type`, `no_nul`, `well_formed_unicode`, `required`, `unique`." },
          message: { type: "string" },
        },
      },
    },
  },
} as const;

/** What each status of an operation means, and the problem type it answers with. */
const RESPONSES: Record<number, { slug: ProblemSlug; description: string; detail: string; errors?: Problem["errors"] }> = {
  400: {
    slug: "validation",
    description: "The request is not valid: the problem names each failing field and rule (also `malformed-json` for a body that is not JSON).",
    detail: "name: is required",
    errors: [{ field: "name", rule: "too_small", message: "is required" }],
  },
  401: { slug: "unauthorized", description: "Missing, malformed, unknown, deleted or expired API key.", detail: "Authenticate with `Authorization: Bearer <API key>`." },
  403: { slug: "forbidden", description: PROBLEM_TYPES.forbidden.meaning, detail: "Your role (readOnly) does not allow this: projects.update." },
  404: { slug: "not-found", description: "Not found, or owned by another organisation.", detail: "Project was not found." },
  409: { slug: "conflict", description: "A conflict with stored state.", detail: "An app user with this clientProvidedId already exists." },
  413: { slug: "payload-too-large", description: PROBLEM_TYPES["payload-too-large"].meaning, detail: PROBLEM_TYPES["payload-too-large"].meaning },
  415: { slug: "unsupported-media-type", description: PROBLEM_TYPES["unsupported-media-type"].meaning, detail: "Send the body as application/json, text/json or application/*+json, not text/plain." },
  422: { slug: "unprocessable", description: "The Idempotency-Key was used before with a different request.", detail: "This Idempotency-Key was used with a different request." },
  429: { slug: "rate-limited", description: "The API key's request quota is spent: retry after `Retry-After` seconds.", detail: "Too many requests for this API key: the limit is 600 per minute. Retry in 12 seconds." },
  500: { slug: "internal", description: "An unexpected error. The detail stays in the server log under the request id.", detail: "An unexpected error occurred. Quote request id 2f6c1e0a-7d1b-4e8f-9a3c-5b4d6e7f8a9b when reporting it." },
  503: { slug: "unavailable", description: PROBLEM_TYPES.unavailable.meaning, detail: "The database is unavailable; retry in 5 s." },
};

/** A problem response of the document for `status`, with its description (overridable) and an example. */
export function problemResponse(status: number, description?: string, headers: Record<string, unknown> = {}) {
  const known = RESPONSES[status];
  if (!known) throw new Error(`No problem response is described for status ${status}.`);
  const example: Problem = {
    type: problemType(known.slug),
    title: PROBLEM_TYPES[known.slug].title,
    status,
    detail: known.detail,
    instance: `/api/v1/public/projects/${EXAMPLE.projectId}`,
    requestId: "2f6c1e0a-7d1b-4e8f-9a3c-5b4d6e7f8a9b",
    ...(known.errors ? { errors: known.errors } : {}),
  };
  return {
    description: description ?? known.description,
    headers,
    content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" }, example } },
  };
}
