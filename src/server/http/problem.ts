import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from "@/server/db/database-unavailable";
import { DomainError, type DomainErrorKind, type FieldIssue } from "@/server/domain/errors";
import { JSON_MEDIA_TYPES, MAX_BODY_BYTES } from "@/server/http/request-body";

/** RFC 9457 problem details, the one error body of the REST surface. */
export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  /** The request's `X-Request-Id`: quote it when reporting a problem (an internal error is logged under it). */
  requestId?: string;
  /** For validation problems: every failing field with the rule it broke. */
  errors?: FieldIssue[];
};

/**
 * The catalogue of problem types: every `type` the API answers with (as `urn:referloop:problem:<slug>`),
 * its status, title and meaning. The OpenAPI document lists it; nothing answers a type not listed here.
 */
export const PROBLEM_TYPES = {
  validation: { status: 400, title: "The request is not valid.", meaning: "A field breaks a rule; `errors` names each field (dotted path) with the rule it broke." },
  "malformed-json": { status: 400, title: "The request body is not valid JSON.", meaning: "The body could not be parsed as JSON (or is not UTF-8)." },
  "malformed-path": { status: 400, title: "The request path is not valid.", meaning: "A percent-escape in the path is malformed or does not decode to UTF-8." },
  "invalid-signature": {
    status: 400,
    title: "The signature is not valid.",
    meaning: "An inbound Stripe hook's `Stripe-Signature` header is missing, does not match the body under the configured signing secret, or is older than 300 s.",
  },
  unauthorized: { status: 401, title: "Missing or invalid credential.", meaning: "The API key is missing, malformed, unknown, deleted or expired." },
  forbidden: { status: 403, title: "Not allowed.", meaning: "The credential is valid but may not do this." },
  "not-found": { status: 404, title: "Resource not found.", meaning: "No such resource, or it belongs to another organisation (the two are indistinguishable)." },
  "method-not-allowed": { status: 405, title: "Method not allowed.", meaning: "The path exists but not with this method; `Allow` lists the methods it has." },
  conflict: { status: 409, title: "Conflict with the current state.", meaning: "The request clashes with stored state (a duplicate ClientProvidedId, an Idempotency-Key still in progress, a retry that cannot run)." },
  "payload-too-large": { status: 413, title: "The request body is too large.", meaning: `The body exceeds ${MAX_BODY_BYTES / 1024} KiB.` },
  "unsupported-media-type": { status: 415, title: "Unsupported content type.", meaning: `The body is not sent as ${JSON_MEDIA_TYPES.join(", ")}.` },
  unprocessable: { status: 422, title: "The request cannot be processed.", meaning: "Well-formed but not applicable: an Idempotency-Key reused with a different request." },
  "rate-limited": { status: 429, title: "Too many requests.", meaning: "A request quota is spent; `Retry-After` says when to retry, the RateLimit headers show the quota." },
  internal: { status: 500, title: "Internal error.", meaning: "An unexpected error; nothing about it is disclosed. Quote `requestId` when reporting it." },
  unavailable: {
    status: 503,
    title: "Temporarily unavailable; retry shortly.",
    meaning: "The database is unavailable for a moment (restarting, out of connections), or a transient shortage such as no free referral code; the same request may succeed after `Retry-After` seconds.",
  },
} as const satisfies Record<string, { status: number; title: string; meaning: string }>;

export type ProblemSlug = keyof typeof PROBLEM_TYPES;

const byCode: Partial<Record<TRPC_ERROR_CODE_KEY, ProblemSlug>> = {
  BAD_REQUEST: "validation",
  PARSE_ERROR: "malformed-json",
  UNAUTHORIZED: "unauthorized",
  FORBIDDEN: "forbidden",
  NOT_FOUND: "not-found",
  METHOD_NOT_SUPPORTED: "method-not-allowed",
  CONFLICT: "conflict",
  PAYLOAD_TOO_LARGE: "payload-too-large",
  UNSUPPORTED_MEDIA_TYPE: "unsupported-media-type",
  UNPROCESSABLE_CONTENT: "unprocessable",
  TOO_MANY_REQUESTS: "rate-limited",
  SERVICE_UNAVAILABLE: "unavailable",
};

export const problemType = (slug: ProblemSlug) => `urn:referloop:problem:${slug}`;

/** The body of a problem of a given type that no error object stands behind (answered before routing). */
export const problemOf = (slug: ProblemSlug, detail: string, extra: Partial<Problem> = {}): Problem => ({
  type: problemType(slug),
  title: PROBLEM_TYPES[slug].title,
  status: PROBLEM_TYPES[slug].status,
  detail,
  ...extra,
});

const kindToCode: Record<DomainErrorKind, TRPC_ERROR_CODE_KEY> = {
  invalid: "BAD_REQUEST",
  unauthorized: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  too_large: "PAYLOAD_TOO_LARGE",
  unprocessable: "UNPROCESSABLE_CONTENT",
  unavailable: "SERVICE_UNAVAILABLE",
};

export const toTRPCError = (error: DomainError) =>
  new TRPCError({ code: kindToCode[error.kind], message: error.message, cause: error });

/**
 * The error as the API answers it: a domain error by its kind, and a database that cannot serve right
 * now (stopped, restarting, out of connections) as a 503 worth retrying rather than an internal error.
 */
export function knownError(error: TRPCError): TRPCError {
  if (error.cause instanceof DomainError) return toTRPCError(error.cause);
  if (error.code === "INTERNAL_SERVER_ERROR" && isDatabaseUnavailable(error.cause)) {
    return new TRPCError({ code: "SERVICE_UNAVAILABLE", message: `The database is unavailable; retry in ${DATABASE_RETRY_AFTER_S} s.`, cause: error.cause });
  }
  return error;
}

/** A custom rule may name itself (`params.rule`), e.g. `app_store_host`; otherwise the issue's code is the rule. */
type ZodLikeIssue = { path: PropertyKey[]; code: string; message: string; params?: { rule?: unknown } };

/** Turns any error reaching the API edge into a problem; internal details never leave the server. */
export function problemFromError(error: TRPCError, requestId?: string): Problem {
  error = knownError(error);
  const known = byCode[error.code];
  const slug = known ?? "internal";
  const { status, title } = PROBLEM_TYPES[slug];
  const cause = error.cause as unknown;
  let errors: FieldIssue[] | undefined;
  if (cause instanceof DomainError && cause.issues.length) errors = cause.issues;
  if (cause instanceof Error && cause.name === "ZodError") {
    const issues = (cause as unknown as { issues: ZodLikeIssue[] }).issues;
    errors = issues.map((i) => ({
      field: i.path.map(String).join(".") || "(body)",
      rule: i.code === "custom" && typeof i.params?.rule === "string" ? i.params.rule : i.code,
      message: i.message,
    }));
  }
  const detail = !known
    ? `An unexpected error occurred.${requestId ? ` Quote request id ${requestId} when reporting it.` : ""}`
    : errors?.length
      ? errors.map((e) => `${e.field}: ${e.message}`).join("; ")
      : error.message;
  return { type: problemType(slug), title, status, detail, ...(requestId ? { requestId } : {}), ...(errors ? { errors } : {}) };
}
