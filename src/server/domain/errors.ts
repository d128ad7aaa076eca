/**
 * Errors the domain throws. The API layer maps each kind to one HTTP status and a problem body,
 * so domain code never thinks about HTTP.
 */
export type DomainErrorKind =
  | "invalid" // 400: input breaks a rule the schema could not express
  | "unauthorized" // 401
  | "forbidden" // 403: the caller is known but this is not theirs to do
  | "not_found" // 404: absent, or owned by another organisation
  | "conflict" // 409: clashes with existing state
  | "too_large" // 413: an upload over its limit
  | "unprocessable" // 422: well-formed but cannot be applied (e.g. idempotency key reuse)
  | "unavailable"; // 503: a transient shortage; the same request may succeed when retried

export type FieldIssue = { field: string; rule: string; message: string };

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const notFound = (what: string) => new DomainError("not_found", `${what} was not found.`);

export const invalidField = (field: string, rule: string, message: string) =>
  new DomainError("invalid", message, [{ field, rule, message }]);

/** A clash with stored state (409); with `field`, the problem names the field that clashes (rule `unique`). */
export const conflict = (message: string, field?: string) =>
  new DomainError("conflict", message, field ? [{ field, rule: "unique", message }] : []);
