/** application/problem+json, as the API answers errors. */
export type Problem = {
  type: string;
  title: string;
  status: number;
  detail?: string;
  errors?: Array<{ field: string; rule: string; message: string }>;
};

export type ReferloopErrorKind =
  /** The request never got an answer (offline, DNS, refused). */
  | "network"
  /** No answer within timeoutMs. */
  | "timeout"
  /** 401: wrong or missing key, or identity verification failed (userHash). */
  | "unauthorized"
  /** 400, 404, 409, 413, 422: the request was refused as it stands (see problem). */
  | "invalid_request"
  /** 429: try again after retryAfterSeconds. */
  | "rate_limited"
  /** 5xx: the service failed; try again later. */
  | "server"
  /** A 2xx whose body is not what the contract says. */
  | "invalid_response"
  /** identify() was called with input the service would refuse (checked before sending). */
  | "invalid_input";

export class ReferloopError extends Error {
  readonly kind: ReferloopErrorKind;
  readonly status: number | null;
  readonly problem: Problem | null;
  readonly retryAfterSeconds: number | null;

  constructor(kind: ReferloopErrorKind, message: string, details: { status?: number; problem?: Problem | null; retryAfterSeconds?: number | null; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "ReferloopError";
    this.kind = kind;
    this.status = details.status ?? null;
    this.problem = details.problem ?? null;
    this.retryAfterSeconds = details.retryAfterSeconds ?? null;
  }

  /** Whether the same call may succeed later without changes. */
  get retryable(): boolean {
    return this.kind === "network" || this.kind === "timeout" || this.kind === "rate_limited" || this.kind === "server";
  }
}
