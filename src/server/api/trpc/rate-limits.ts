import { TRPCError } from "@trpc/server";
import { waitInWords } from "@/lib/format";
import type { Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import { getOrganizationRateLimits, type OrganizationRateLimits } from "@/server/domain/organizations/organization-rate-limits";
import { requestClientIp } from "@/server/http/peer-address";
import { rateLimitHeaders } from "@/server/rate-limit/rate-limit-headers";
import type { LimitOutcome, Quota, RateLimiter } from "@/server/rate-limit/rate-limiter";

/**
 * The request quotas of the API, applied by the procedure kinds: per API key and per signed-in user
 * (protectedProcedure, sessionProcedure), per project key and client IP (the SDK procedure kind calls
 * limitSdkRequest), per IP and per e-mail address on sign-up and on the other calls a signed-out
 * caller can make (limitAccountEmail, limitAccountLink). Sign-in is guarded in
 * src/server/auth/sign-in-guard.ts. Every limited response carries the RateLimit headers; over a
 * quota the call is a 429 problem with Retry-After.
 */

/** What a limit needs of the tRPC context. */
export type LimitContext = { db: Db; config: Config; limiter: RateLimiter; headers: Headers; responseHeaders: Headers };

const MINUTE = 60;
const HOUR = 60 * 60;

/** The policy names of the RateLimit headers. */
export const RATE_LIMIT_POLICIES = {
  apiKey: "api-key",
  sdk: "sdk",
  dashboard: "dashboard",
  signUpIp: "sign-up-ip",
  signUpEmail: "sign-up-email",
  accountEmailIp: "account-email-ip",
  accountEmailAddress: "account-email-address",
  accountLinkIp: "account-link-ip",
  bulkRetry: "bulk-retry",
  exports: "exports",
} as const;

/** API keys: the organisation's own quota, else RATE_LIMIT_API_KEY_PER_MINUTE. */
export async function limitApiKey(ctx: LimitContext, actor: { apiKeyId: string; organizationId: string }): Promise<void> {
  const own = await organizationLimits(ctx.db, actor.organizationId);
  const quota = { points: own.apiPerMinute ?? ctx.config.rateLimits.apiKeyPerMinute, windowSeconds: MINUTE };
  await enforce(ctx, [await ctx.limiter.consume(RATE_LIMIT_POLICIES.apiKey, actor.apiKeyId, quota)], "this API key");
}

/**
 * Dashboard calls, per signed-in user whatever the session or organisation: RATE_LIMIT_DASHBOARD_PER_MINUTE.
 * Each call of a batch counts. Generous for a person clicking; a stolen or scripted session is held to it.
 */
export async function limitDashboardUser(ctx: LimitContext, actor: { userId: string }): Promise<void> {
  const quota = { points: ctx.config.rateLimits.dashboardPerMinute, windowSeconds: MINUTE };
  await enforce(ctx, [await ctx.limiter.consume(RATE_LIMIT_POLICIES.dashboard, actor.userId, quota)], "your account");
}

/**
 * The client-library endpoints: per project key and client IP, with the organisation's own quota,
 * else RATE_LIMIT_SDK_PER_MINUTE. `projectKey` is whatever identifies the key the call authenticated
 * with (its id, or the project's id). Call it once the key is known, before any work.
 */
export async function limitSdkRequest(ctx: LimitContext, input: { projectKey: string; organizationId: string }): Promise<void> {
  const own = await organizationLimits(ctx.db, input.organizationId);
  const quota = { points: own.sdkPerMinute ?? ctx.config.rateLimits.sdkPerMinute, windowSeconds: MINUTE };
  const ip = requestClientIp(ctx.headers, ctx.config.trustedProxies) ?? "unknown";
  await enforce(ctx, [await ctx.limiter.consume(RATE_LIMIT_POLICIES.sdk, `${input.projectKey}|${ip}`, quota)], "this project key from your address");
}

/**
 * A bulk delivery retry, per organisation whoever calls: one call may queue thousands of sends to the
 * organisation's receivers (RATE_LIMIT_BULK_RETRY_PER_HOUR), on top of the caller's own quota.
 */
export async function limitBulkRetry(ctx: LimitContext, organizationId: string): Promise<void> {
  const quota = { points: ctx.config.rateLimits.bulkRetryPerHour, windowSeconds: HOUR };
  await enforce(ctx, [await ctx.limiter.consume(RATE_LIMIT_POLICIES.bulkRetry, organizationId, quota)], "bulk retries of your organisation");
}

/**
 * A CSV export, per organisation whoever calls (RATE_LIMIT_EXPORTS_PER_HOUR): one call may read every
 * row of a project's largest tables, on top of the caller's own quota.
 */
export async function limitExport(ctx: LimitContext, organizationId: string): Promise<void> {
  const quota = { points: ctx.config.rateLimits.exportsPerHour, windowSeconds: HOUR };
  await enforce(ctx, [await ctx.limiter.consume(RATE_LIMIT_POLICIES.exports, organizationId, quota)], "exports of your organisation");
}

/** Sign-up: per client IP and per e-mail address (each attempt counts, whatever its outcome). */
export async function limitSignUp(ctx: LimitContext, email: string): Promise<void> {
  const { signUpPerIpPerHour, signUpPerEmailPerHour } = ctx.config.rateLimits;
  const ip = requestClientIp(ctx.headers, ctx.config.trustedProxies);
  const outcomes = [
    ip ? await ctx.limiter.consume(RATE_LIMIT_POLICIES.signUpIp, ip, { points: signUpPerIpPerHour, windowSeconds: HOUR }) : null,
    await ctx.limiter.consume(RATE_LIMIT_POLICIES.signUpEmail, email, { points: signUpPerEmailPerHour, windowSeconds: HOUR }),
  ];
  await enforce(ctx, outcomes, "sign-ups");
}

/**
 * Calls that e-mail an address (a password reset, a new verification link): per client IP and per
 * address, whether or not an account has it, so neither a mailbox nor the mail server can be flooded.
 */
export async function limitAccountEmail(ctx: LimitContext, email: string): Promise<void> {
  const { accountEmailsPerIpPerHour, accountEmailsPerAddressPerHour } = ctx.config.rateLimits;
  const ip = requestClientIp(ctx.headers, ctx.config.trustedProxies);
  const outcomes = [
    ip ? await ctx.limiter.consume(RATE_LIMIT_POLICIES.accountEmailIp, ip, { points: accountEmailsPerIpPerHour, windowSeconds: HOUR }) : null,
    await ctx.limiter.consume(RATE_LIMIT_POLICIES.accountEmailAddress, email.trim().toLowerCase(), { points: accountEmailsPerAddressPerHour, windowSeconds: HOUR }),
  ];
  await enforce(ctx, outcomes, "e-mails of this kind");
}

/**
 * Calls that present an e-mailed link's token (password reset, e-mail verification, invitations): per
 * client IP, before the token is looked up, so tokens cannot be tried at speed.
 */
export async function limitAccountLink(ctx: LimitContext): Promise<void> {
  const ip = requestClientIp(ctx.headers, ctx.config.trustedProxies);
  if (!ip) return;
  const quota = { points: ctx.config.rateLimits.accountLinksPerIpPerHour, windowSeconds: HOUR };
  await enforce(ctx, [await ctx.limiter.consume(RATE_LIMIT_POLICIES.accountLinkIp, ip, quota)], "e-mailed links from your address");
}

/** Puts the RateLimit headers on the response; a refused quota ends the call with a 429. */
async function enforce(ctx: LimitContext, results: (LimitOutcome | null)[], subject: string): Promise<void> {
  const outcomes = results.filter((o): o is LimitOutcome => o !== null);
  for (const [name, value] of Object.entries(rateLimitHeaders(outcomes))) ctx.responseHeaders.set(name, value);
  const refused = outcomes.find((o) => !o.allowed);
  if (refused) {
    throw new TRPCError({
      code: "TOO_MANY_REQUESTS",
      message: `Too many requests for ${subject}: the limit is ${describeQuota(refused.quota)}. Retry in ${waitInWords(refused.resetSeconds)}.`,
    });
  }
}

const describeQuota = ({ points, windowSeconds }: Quota) =>
  `${points} per ${windowSeconds === MINUTE ? "minute" : windowSeconds === HOUR ? "hour" : `${windowSeconds} s`}`;

/*
 * An organisation's own quotas change rarely (an operator sets them), so each instance reads them at
 * most once a minute per organisation instead of once per request.
 */
const OVERRIDE_TTL_MS = 60_000;
const overrides = new Map<string, { limits: OrganizationRateLimits; until: number }>();

async function organizationLimits(db: Db, organizationId: string): Promise<OrganizationRateLimits> {
  const cached = overrides.get(organizationId);
  if (cached && cached.until > Date.now()) return cached.limits;
  const limits = await getOrganizationRateLimits(db, organizationId);
  if (overrides.size > 10_000) overrides.clear();
  overrides.set(organizationId, { limits, until: Date.now() + OVERRIDE_TTL_MS });
  return limits;
}
