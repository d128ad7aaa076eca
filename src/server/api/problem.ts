import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { DomainError, type DomainErrorKind, type FieldIssue } from "@/server/domain/errors";

/** RFC 9457 problem details, the one error body of the REST surface. */
export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  /** For validation problems: every failing field with the rule it broke. */
  errors?: FieldIssue[];
};

const byCode: Partial<Record<TRPC_ERROR_CODE_KEY, { status: number; slug: string; title: string }>> = {
  BAD_REQUEST: { status: 400, slug: "validation", title: "The request is not valid." },
  PARSE_ERROR: { status: 400, slug: "malformed-json", title: "The request body is not valid JSON." },
  UNAUTHORIZED: { status: 401, slug: "unauthorized", title: "Missing or invalid credential." },
  FORBIDDEN: { status: 403, slug: "forbidden", title: "Not allowed." },
  NOT_FOUND: { status: 404, slug: "not-found", title: "Resource not found." },
  METHOD_NOT_SUPPORTED: { status: 405, slug: "method-not-allowed", title: "Method not allowed." },
  CONFLICT: { status: 409, slug: "conflict", title: "Conflict with the current state." },
  PAYLOAD_TOO_LARGE: { status: 413, slug: "payload-too-large", title: "The request body is too large." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, slug: "unsupported-media-type", title: "Unsupported content type." },
  UNPROCESSABLE_CONTENT: { status: 422, slug: "unprocessable", title: "The request cannot be processed." },
  TOO_MANY_REQUESTS: { status: 429, slug: "rate-limited", title: "Too many requests." },
  SERVICE_UNAVAILABLE: { status: 503, slug: "unavailable", title: "Temporarily unavailable; retry shortly." },
};
const internal = { status: 500, slug: "internal", title: "Internal error." };

export const problemType = (slug: string) => `urn:referloop:problem:${slug}`;

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

type ZodLikeIssue = { path: PropertyKey[]; code: string; message: string };

/** Turns any error reaching the API edge into a problem; internal details never leave the server. */
export function problemFromError(error: TRPCError): Problem {
  const known = byCode[error.code];
  const { status, slug, title } = known ?? internal;
  const cause = error.cause as unknown;
  let errors: FieldIssue[] | undefined;
  if (cause instanceof DomainError && cause.issues.length) errors = cause.issues;
  if (cause instanceof Error && cause.name === "ZodError") {
    const issues = (cause as unknown as { issues: ZodLikeIssue[] }).issues;
    errors = issues.map((i) => ({
      field: i.path.map(String).join(".") || "(body)",
      rule: i.code,
      message: i.message,
    }));
  }
  const detail = !known
    ? "An unexpected error occurred."
    : errors?.length
      ? errors.map((e) => `${e.field}: ${e.message}`).join("; ")
      : error.message;
  return { type: problemType(slug), title, status, detail, ...(errors ? { errors } : {}) };
}
