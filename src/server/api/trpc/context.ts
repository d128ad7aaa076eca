import { getConfig, type Config } from "@/server/config";
import { getCredentialCache, getDb, type Db } from "@/server/db/client";
import type { CredentialCache } from "@/server/db/credential-cache";
import { authenticateApiKey } from "@/server/domain/api-keys/authenticate-api-key";
import { requestIdFrom } from "@/server/http/request-id";
import { HeaderMap } from "@/server/http/header-map";
import { loadSessionAccess } from "@/server/domain/sessions/load-session-access";
import { deliveryScheduler, type DeliveryScheduler } from "@/server/jobs/scheduler";
import { appRateLimiter } from "@/server/rate-limit/app-rate-limiter";
import type { RateLimiter } from "@/server/rate-limit/rate-limiter";
import type { Actor, Context } from "./procedures";

/** What every request works with: built once per process by the routes, passed in by tests. */
export type Services = { db: Db; config: Config; scheduler: DeliveryScheduler; limiter: RateLimiter; credentials: CredentialCache };

export async function appServices(): Promise<Services> {
  const config = getConfig();
  return { db: await getDb(), config, scheduler: deliveryScheduler(config), limiter: appRateLimiter(config), credentials: getCredentialCache() };
}

/** One HTTP exchange, as the context carries it: its id and its response headers. */
export type RequestScope = Pick<Context, "requestId" | "responseHeaders">;

export const requestScope = (headers: Headers, scope: Partial<RequestScope> = {}): RequestScope => ({
  requestId: scope.requestId ?? requestIdFrom(headers),
  responseHeaders: scope.responseHeaders ?? new HeaderMap(),
});

/** The API key of an `Authorization: Bearer <key>` header; anything else is no credential. */
export function bearerToken(headers: Headers): string | null {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  return match?.[1] ?? null;
}

/** REST callers (backends) authenticate with an API key only; cookies are never read here. */
export async function createRestContext(services: Services, headers: Headers, scope: Partial<RequestScope> = {}): Promise<Context> {
  const token = bearerToken(headers);
  const key = token ? await authenticateApiKey(services.db, token, services.credentials) : null;
  return { ...services, ...requestScope(headers, scope), headers, via: "rest", actor: key ? { kind: "apiKey", ...key } : null };
}

/** What the session cookie carries: the user and the server-side session it names. */
export type SessionToken = { userId: string; sessionId: string };

/**
 * Dashboard callers: the signed-in user acting for the organisation they picked (cookie), or their
 * oldest membership when the pick is absent or no longer theirs. The session must still exist on the
 * server (sign-out, revocation and password changes delete it); one statement checks it and loads
 * the memberships, so a removed member loses the organisation on their next request.
 */
export async function createSessionContext(
  services: Services,
  headers: Headers,
  session: SessionToken | null,
  preferredOrganizationId: string | null,
  scope: Partial<RequestScope> = {},
): Promise<Context> {
  const base = { ...services, ...requestScope(headers, scope), headers, via: "trpc" as const };
  const anonymous: Context = { ...base, actor: null };
  if (!session) return anonymous;
  const access = await loadSessionAccess(services.db, session.userId, session.sessionId);
  if (!access) return anonymous; // revoked, expired, or the account is gone
  const { memberships } = access;
  const active = memberships.find((m) => m.organizationId === preferredOrganizationId) ?? memberships[0];
  const actor: Actor = {
    kind: "user",
    userId: session.userId,
    email: access.email,
    emailVerified: access.emailVerified,
    sessionId: session.sessionId,
    organizationId: active?.organizationId ?? null,
    role: active?.role ?? null,
  };
  return { ...base, actor };
}

export const ACTIVE_ORGANIZATION_COOKIE = "referloop_org";
