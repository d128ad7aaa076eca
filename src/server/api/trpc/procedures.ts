import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { ApiKeyRole, MemberRole } from "@/generated/prisma/enums";
import { can, type Permission, type Principal } from "@/lib/permissions";
import { findTextIssues } from "@/lib/schemas/well-formed-text";
import type { Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import type { CredentialCache } from "@/server/db/credential-cache";
import { DomainError } from "@/server/domain/errors";
import { currentRequestId } from "@/server/http/request-id";
import type { DeliveryScheduler } from "@/server/jobs/scheduler";
import type { RateLimiter } from "@/server/rate-limit/rate-limiter";
import { knownError, problemFromError, toTRPCError } from "@/server/http/problem";
import { limitApiKey, limitDashboardUser } from "./rate-limits";

/** Who is calling, resolved once per request. */
export type Actor =
  | {
      kind: "user";
      userId: string;
      email: string;
      emailVerified: boolean;
      /** The server-side session the cookie names (revocable). */
      sessionId: string;
      organizationId: string | null;
      role: MemberRole | null;
    }
  | { kind: "apiKey"; apiKeyId: string; name: string; organizationId: string; role: ApiKeyRole };

export type Context = {
  db: Db;
  config: Config;
  /** Told which delivery rows a procedure just queued (best-effort: see DeliveryScheduler). */
  scheduler: DeliveryScheduler;
  /** This process's rate-limit counters (see src/server/api/trpc/rate-limits.ts). */
  limiter: RateLimiter;
  /** API keys and project keys as authentication last found them (see src/server/db/credential-cache.ts). */
  credentials: CredentialCache;
  actor: Actor | null;
  /** Raw request headers, for the few procedures that read one (Idempotency-Key). */
  headers: Headers;
  /** REST (the OpenAPI surface, src/server/api/rest) or the dashboard's tRPC client. */
  via: "rest" | "trpc";
  /** Sent back as `X-Request-Id`; an internal error is logged under it. */
  requestId: string;
  /** Headers for the response, whatever its outcome (the RateLimit fields). */
  responseHeaders: Headers;
};

export type Meta = OpenApiMeta<{
  /** REST success status when not 200: 201 for creates, 202 for work queued. */
  status?: 201 | 202;
  /** The response carries a secret in clear (shown once): REST answers it with `Cache-Control: no-store`. */
  secret?: true;
  /** The success answer's sample when the output schema's own examples (shared with other operations) would mislead here. */
  answerExample?: unknown;
  /** Further problem statuses this operation can answer, for the OpenAPI document. */
  errors?: { status: number; description: string }[];
  /** What the caller's role must allow (src/lib/permissions.ts); required on every organisation procedure. */
  permission?: Permission;
  /** Client-library operations: the project credential they take (set by the SDK procedure kinds, see sdk-procedure.ts). */
  sdkCredential?: "projectKey" | "projectSecret";
  /**
   * REST only: the body is raw bytes, not JSON (an upload). The REST wrapper reads at most `maxBytes`
   * (more: a 413 naming `what`) and passes them as the input field `field`.
   */
  binaryBody?: { field: string; maxBytes: number; what: string };
  /** REST only: the JSON body may be left out (every field has a default: a rotation's `overlapHours`). */
  optionalBody?: true;
  /**
   * REST only: the answer is a file of this media type, sent as it is produced (the procedure returns
   * a CsvExport: src/server/domain/exports/csv-export.ts), as an attachment, never JSON.
   */
  download?: "text/csv";
  /**
   * false: a tRPC batch that holds this call is refused whole (handle-trpc-request.ts): the calls a
   * signed-out caller reaches, each rate-limited per client, and costly (sign-up runs scrypt). The
   * dashboard's link sends them alone (UNBATCHED_PROCEDURES in src/lib/trpc-batch.ts).
   */
  batch?: false;
  /**
   * The call changes what authentication reads (API keys, project keys and settings, roles): this
   * process drops its credential cache before answering, so its own next call sees the change even
   * before the database's notification comes back (see credential-cache.ts).
   */
  changesCredentials?: true;
}>;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    /*
     * What a tRPC caller learns of an error: the problem, and for an internal error nothing but a
     * generic message and the request id (the detail and stack go to the server log only).
     */
    errorFormatter: ({ shape, error, ctx }) => {
      const problem = problemFromError(error, ctx?.requestId ?? currentRequestId());
      if (problem.status < 500) return { ...shape, data: { ...shape.data, problem } };
      const { stack: _stack, ...data } = shape.data;
      return { ...shape, message: problem.detail, data: { ...data, problem } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * The REST wrapper hands path parameters over still percent-encoded; decoded here, once, so
 * `/users/by-user-id/team%2Fa` finds the user `team/a`. Returns the input unchanged when nothing is decoded.
 */
function decodePathParameters(raw: unknown, via: Context["via"], path: string | undefined): unknown {
  if (via !== "rest" || !path?.includes("{") || !raw || typeof raw !== "object") return raw;
  const decoded: Record<string, unknown> = { ...raw };
  for (const name of parameterNames(path)) {
    const value = decoded[name];
    if (typeof value !== "string") continue;
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      // A malformed escape stays as sent: it names nothing, so the lookup answers 404.
    }
  }
  return decoded;
}

const namesByPath = new Map<string, string[]>();
/** The parameter names of a REST path template, read once per template. */
function parameterNames(path: string): string[] {
  let names = namesByPath.get(path);
  if (!names) namesByPath.set(path, (names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)));
  return names;
}

/**
 * What every procedure gets, REST, SDK and tRPC alike, in one middleware (each tRPC middleware level
 * copies the call's options and context, a measurable share of a GET's CPU):
 * - path parameters decoded (decodePathParameters);
 * - the text rule of every input (src/lib/schemas/well-formed-text.ts), on the raw input after path
 *   decoding and before any schema: NUL and unpaired surrogates would otherwise reach PostgreSQL,
 *   which refuses them with a 500. Headers need no check: neither the HTTP parser nor Fetch's Headers
 *   lets either character into a header;
 * - after a call marked `changesCredentials`, this process's credential cache dropped;
 * - domain errors and an unavailable database turned into tRPC errors of their kind.
 */
const requestRules = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  const raw = await getRawInput();
  const input = decodePathParameters(raw, ctx.via, meta?.openapi?.path);
  const issues = findTextIssues(input);
  if (issues.length) throw toTRPCError(new DomainError("invalid", "The request contains text or a key that cannot be stored.", issues));
  const result = await (input === raw ? next() : next({ getRawInput: async () => input }));
  if (meta?.changesCredentials) ctx.credentials.clear();
  if (!result.ok) {
    const known = knownError(result.error);
    if (known !== result.error) throw known;
  }
  return result;
});

export const publicProcedure = t.procedure.use(requestRules);

/**
 * The one permission check: the procedure's `permission` meta against the caller's role (a key acts
 * with its own role). A procedure that names no permission is refused to everyone, so a forgotten
 * one fails closed (and the router test names it).
 */
function authorize(principal: Principal, permission: Permission | undefined) {
  if (!permission) throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "This operation declares no permission." });
  if (!can(principal, permission)) {
    throw new TRPCError({ code: "FORBIDDEN", message: `Your role (${principal}) does not allow this: ${permission}.` });
  }
}

/** A dashboard session or an API key, acting for one organisation, with the permission the meta names. */
export const protectedProcedure = publicProcedure.use(async ({ ctx, meta, next }) => {
  const actor = ctx.actor;
  if (!actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "Authenticate with `Authorization: Bearer <API key>`." });
  if (!actor.organizationId || !actor.role) throw new TRPCError({ code: "FORBIDDEN", message: "You are not a member of any organisation." });
  // Counted before the permission check: a refused call spends quota too.
  await (actor.kind === "apiKey" ? limitApiKey(ctx, actor) : limitDashboardUser(ctx, actor));
  authorize(actor.role, meta?.permission);
  // tRPC merges what next() gives into the context: only the changes are passed, not a copy of it all.
  return next({ ctx: { actor, organizationId: actor.organizationId } });
});

/** Dashboard-only operations (account, organisation, API keys): a signed-in user. */
export const sessionProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const actor = ctx.actor;
  if (actor?.kind !== "user") throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first." });
  await limitDashboardUser(ctx, actor);
  return next({ ctx: { actor } });
});

/** A signed-in member of the active organisation, with the permission the meta names. */
export const memberProcedure = sessionProcedure.use(({ ctx, meta, next }) => {
  const { organizationId, role } = ctx.actor;
  if (!organizationId || !role) throw new TRPCError({ code: "FORBIDDEN", message: "You are not a member of any organisation." });
  authorize(role, meta?.permission);
  return next({ ctx: { organizationId, role } });
});
