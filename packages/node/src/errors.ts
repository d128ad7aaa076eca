import type { components } from "./openapi.ts";

/** The API's problem+json body (RFC 9457), as the document declares it. */
export type Problem = components["schemas"]["Problem"];

/**
 * An answer other than 2xx, after any retries: the problem's `type` (a stable URN to branch on),
 * `status`, `title`, `detail` (names the failing fields) and `requestId` (quote it when reporting).
 */
export class ReferloopError extends Error {
  readonly type: Problem["type"] | "about:blank";
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly requestId: string | null;
  /** The fields and rules a validation problem names. */
  readonly errors: NonNullable<Problem["errors"]>;

  constructor(problem: Partial<Problem> & { status: number }, requestId: string | null) {
    const title = problem.title ?? `HTTP ${problem.status}`;
    const detail = problem.detail ?? title;
    super(`${problem.status} ${detail}${requestId ? ` (request ${requestId})` : ""}`);
    this.name = "ReferloopError";
    this.type = problem.type ?? "about:blank";
    this.status = problem.status;
    this.title = title;
    this.detail = detail;
    this.requestId = requestId;
    this.errors = problem.errors ?? [];
  }
}

const isProblem = (body: unknown): body is Problem =>
  typeof body === "object" && body !== null && typeof (body as Problem).type === "string" && typeof (body as Problem).status === "number";

/** The error for a failed answer: its problem body when it has one (a proxy's page has not). */
export function problemError(body: unknown, response: Response): ReferloopError {
  const requestId = (isProblem(body) ? body.requestId : undefined) ?? response.headers.get("X-Request-Id");
  const problem = isProblem(body) ? body : { status: response.status, title: response.statusText || undefined };
  return new ReferloopError({ ...problem, status: response.status }, requestId ?? null);
}
