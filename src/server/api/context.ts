import { getConfig, type Config } from "@/server/config";
import { getDb, type Db } from "@/server/db/client";
import { authenticateApiKey } from "@/server/domain/api-keys/authenticate-api-key";
import { requestIdFrom } from "@/server/http/request-id";
import { deliveryScheduler, type DeliveryScheduler } from "@/server/jobs/scheduler";
import { appRateLimiter } from "@/server/rate-limit/app-rate-limiter";
import type { RateLimiter } from "@/server/rate-limit/rate-limiter";
import type { Actor, Context } from "./trpc";

/** What every request works with: built once per process by the routes, passed in by tests. */
export type Services = { db: Db; config: Config; scheduler: DeliveryScheduler; limiter: RateLimiter };

export async function appServices(): Promise<Services> {
  const config = getConfig();
  return { db: await getDb(), config, scheduler: deliveryScheduler(config), limiter: appRateLimiter(config) };
}

/** One HTTP exchange, as the context carries it: its id, its response headers, its number of calls. */
export type RequestScope = Pick<Context, "requestId" | "responseHeaders" | "batchSize">;

export const requestScope = (headers: Headers, scope: Partial<RequestScope> = {}): RequestScope => ({
  requestId: scope.requestId ?? requestIdFrom(headers),
  responseHeaders: scope.responseHeaders ?? new Headers(),
  batchSize: scope.batchSize ?? 1,
});

/** The API key of an `Authorization: Bearer <key>` header; anything else is no credential. */
export function bearerToken(headers: Headers): string | null {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  return match?.[1] ?? null;
}

/** REST callers (backends) authenticate with an API key only; cookies are never read here. */
export async function createRestContext(services: Services, headers: Headers, scope: Partial<RequestScope> = {}): Promise<Context> {
  const token = bearerToken(headers);
  const key = token ? await authenticateApiKey(services.db, token) : null;
  return { ...services, ...requestScope(headers, scope), headers, via: "rest", actor: key ? { kind: "apiKey", ...key } : null };
}

/**
 * Dashboard callers: the signed-in user acting for the organisation they picked (cookie), or
 * their oldest membership when the pick is absent or no longer theirs.
 */
export async function createSessionContext(
  services: Services,
  headers: Headers,
  userId: string | null,
  preferredOrganizationId: string | null,
  scope: Partial<RequestScope> = {},
): Promise<Context> {
  const { db } = services;
  const base = { ...services, ...requestScope(headers, scope), headers, via: "trpc" as const };
  if (!userId) return { ...base, actor: null };
  const memberships = await db.membership.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
  if (!memberships.length && !(await db.user.findUnique({ where: { id: userId }, select: { id: true } }))) {
    return { ...base, actor: null }; // the account was deleted: the session no longer counts
  }
  const active = memberships.find((m) => m.organizationId === preferredOrganizationId) ?? memberships[0];
  const actor: Actor = { kind: "user", userId, organizationId: active?.organizationId ?? null, role: active?.role ?? null };
  return { ...base, actor };
}

export const ACTIVE_ORGANIZATION_COOKIE = "referloop_org";
