import { TRPCError } from "@trpc/server";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limitSdkRequest, type LimitContext } from "@/server/api/trpc/rate-limits";
import { setOrganizationRateLimits } from "@/server/domain/organizations/organization-rate-limits";
import { connectRedis } from "@/server/rate-limit/app-rate-limiter";
import { RateLimiter } from "@/server/rate-limit/rate-limiter";
import { createTestDb, type TestDb } from "@/test/db";
import { uniqueName } from "@/test/names";
import { createOrgWithApiKey, expectProblem, restClient, type RestResponse } from "@/test/rest";
import { PEER_ADDRESS_HEADER } from "@/server/http/peer-address";
import { handleTrpcRequest } from "@/server/api/trpc/handle-trpc-request";
import { signUpForTest, TEST_PASSWORD } from "@/test/accounts";
import { testConfig, testServices } from "@/test/config";
import { callerFor, signInForTest } from "@/test/sessions";
import type { SessionToken } from "@/server/api/trpc/context";

/*
 * Request quotas over the real REST handler: in memory, and in the local Redis shared by two
 * "instances" (two handlers with limiter objects of their own). Each test uses Redis keys under a
 * prefix of its own and deletes them afterwards.
 */

const REDIS_URL = "redis://127.0.0.1:6379";
let t: TestDb;
const redisClients: Redis[] = [];
const prefixes: string[] = [];

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  const cleaner = connectRedis(REDIS_URL);
  await new Promise((resolve) => cleaner.once("ready", resolve));
  for (const prefix of prefixes) {
    const keys = await cleaner.keys(`${prefix}:*`);
    if (keys.length) await cleaner.del(...keys);
  }
  await Promise.all([cleaner, ...redisClients].map((c) => c.quit().catch(() => c.disconnect())));
  await t?.drop();
});

/** A limiter on the local Redis, under this test's own key prefix. */
async function redisLimiter(keyPrefix: string, url = REDIS_URL): Promise<RateLimiter> {
  const redis = connectRedis(url);
  redisClients.push(redis);
  if (url === REDIS_URL) await new Promise((resolve) => redis.once("ready", resolve));
  return new RateLimiter({ redis, keyPrefix });
}

const config = (perMinute: number) => testConfig({ RATE_LIMIT_API_KEY_PER_MINUTE: String(perMinute) });

function expectAllowed(res: RestResponse, quota: number, remaining: number) {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get("ratelimit-policy")).toBe(`"api-key";q=${quota};w=60`);
  expect(res.headers.get("ratelimit")).toMatch(new RegExp(`^"api-key";r=${remaining};t=(60|59)$`));
  expect(res.headers.get("retry-after")).toBeNull();
}

function expectLimited(res: RestResponse, quota: number) {
  expectProblem(res, 429);
  expect(res.json.type).toBe("urn:referloop:problem:rate-limited");
  expect(res.json.detail).toContain(`${quota} per minute`);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers.get("ratelimit")).toBe(`"api-key";r=0;t=${retryAfter}`);
  expect(res.headers.get("x-request-id")).toBeTruthy();
}

describe("API key quotas", () => {
  it("in memory: N requests per minute per key, then 429 with Retry-After; another key has its own budget", async () => {
    const { org, apiKey } = await createOrgWithApiKey(t.db);
    const services = { config: config(3), limiter: new RateLimiter() };
    const call = restClient(t.db, apiKey, services);
    expectAllowed(await call("GET", "/projects"), 3, 2);
    expectAllowed(await call("GET", "/projects"), 3, 1);
    expectAllowed(await call("GET", "/projects"), 3, 0);
    expectLimited(await call("GET", "/projects"), 3);
    // Refused calls are still refused (and still counted), whatever they ask for.
    expectLimited(await call("POST", "/projects", { body: { name: "Not created" } }), 3);
    expect(await t.db.project.count({ where: { organizationId: org.id } })).toBe(0);

    const { apiKey: otherKey } = await createOrgWithApiKey(t.db);
    expectAllowed(await restClient(t.db, otherKey, services)("GET", "/projects"), 3, 2);
  });

  it("an organisation's own quota replaces the server's; 0 means no limit (and no headers)", async () => {
    const small = await createOrgWithApiKey(t.db);
    await setOrganizationRateLimits(t.db, small.org.id, { apiPerMinute: 1 });
    const services = { config: config(100), limiter: new RateLimiter() };
    const call = restClient(t.db, small.apiKey, services);
    expectAllowed(await call("GET", "/projects"), 1, 0);
    expectLimited(await call("GET", "/projects"), 1);

    const unlimited = await createOrgWithApiKey(t.db);
    await setOrganizationRateLimits(t.db, unlimited.org.id, { apiPerMinute: 0 });
    const free = restClient(t.db, unlimited.apiKey, { config: config(1), limiter: new RateLimiter() });
    for (let i = 0; i < 3; i++) {
      const res = await free("GET", "/projects");
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit")).toBeNull();
    }
  });

  it("in Redis: two app instances with limiter objects of their own share one budget", async () => {
    const prefix = uniqueName("rl-test");
    prefixes.push(prefix);
    const { apiKey } = await createOrgWithApiKey(t.db);
    const first = restClient(t.db, apiKey, { config: config(3), limiter: await redisLimiter(prefix) });
    const second = restClient(t.db, apiKey, { config: config(3), limiter: await redisLimiter(prefix) });
    expectAllowed(await first("GET", "/projects"), 3, 2);
    expectAllowed(await second("GET", "/projects"), 3, 1);
    expectAllowed(await first("GET", "/projects"), 3, 0);
    expectLimited(await second("GET", "/projects"), 3);
    expectLimited(await first("GET", "/projects"), 3);
  });

  it("with Redis unreachable, each instance keeps limiting in memory", async () => {
    const { apiKey } = await createOrgWithApiKey(t.db);
    const limiter = await redisLimiter(uniqueName("rl-down"), "redis://127.0.0.1:1");
    const call = restClient(t.db, apiKey, { config: config(2), limiter });
    expectAllowed(await call("GET", "/projects"), 2, 1);
    expectAllowed(await call("GET", "/projects"), 2, 0);
    expectLimited(await call("GET", "/projects"), 2);
  });
});

describe("dashboard quotas (per signed-in user)", () => {
  it("count every call of a user, across sessions and batches, then 429 with Retry-After; another user has their own", async () => {
    const services = testServices(t.db, { config: testConfig({ RATE_LIMIT_DASHBOARD_PER_MINUTE: "3" }) });
    const anonymous = await callerFor(t.db, null, null, services);
    const user = await signUpForTest(t.db, anonymous, `${uniqueName("dash")}@example.com`);
    const other = await signUpForTest(t.db, anonymous, `${uniqueName("dash")}@example.com`);
    const call = async (who: typeof user, path: string) => {
      const req = new Request(`http://localhost/api/trpc/${path}`);
      const res = await handleTrpcRequest(req, services, async () => ({ token: who.session, organizationId: who.organizationId }));
      return { status: res.status, headers: res.headers, json: await res.json() };
    };
    // A session procedure (accounts.me) and a member procedure (projects.list) draw on one budget.
    const first = await call(user, "accounts.me");
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe(`"dashboard";q=3;w=60`);
    expect(first.headers.get("ratelimit")).toMatch(/^"dashboard";r=2;t=(60|59)$/);
    // Two calls in one batch count as two.
    const batch = await call(user, `accounts.me,projects.list?batch=1&input=${encodeURIComponent("{}")}`);
    expect(batch.status).toBe(200);
    expect(batch.headers.get("ratelimit")).toMatch(/^"dashboard";r=0;/);
    const refused = await call(user, "projects.list");
    expect(refused.status).toBe(429);
    expect(refused.json.error.data.problem).toMatchObject({ status: 429, type: "urn:referloop:problem:rate-limited" });
    expect(refused.json.error.data.problem.detail).toContain("your account: the limit is 3 per minute");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another session of the same user shares the budget; another user does not.
    const again = { ...user, session: await signInForTest(t.db, user.email, TEST_PASSWORD) };
    expect((await call(again, "accounts.me")).status).toBe(429);
    expect((await call(other, "accounts.me")).status).toBe(200);
  });

  it("0 switches it off", async () => {
    const services = testServices(t.db, { config: testConfig({ RATE_LIMIT_DASHBOARD_PER_MINUTE: "0" }) });
    const user = await signUpForTest(t.db, await callerFor(t.db, null, null, services), `${uniqueName("dash")}@example.com`);
    const caller = await callerFor(t.db, user.session, user.organizationId, services);
    for (let i = 0; i < 5; i++) await caller.accounts.me();
  });
});

describe("the SDK helper (per project key and client IP)", () => {
  const context = (limiter: RateLimiter, ip: string, perMinute = 2): LimitContext => ({
    db: t.db,
    config: testConfig({ RATE_LIMIT_SDK_PER_MINUTE: String(perMinute) }),
    limiter,
    headers: new Headers({ [PEER_ADDRESS_HEADER]: ip }),
    responseHeaders: new Headers(),
  });

  for (const store of ["memory", "redis"] as const) {
    it(`counts per key and address, in ${store}, with the organisation's own quota when it has one`, async () => {
      const prefix = uniqueName("rl-sdk");
      prefixes.push(prefix);
      const limiter = store === "redis" ? await redisLimiter(prefix) : new RateLimiter();
      const { org } = await createOrgWithApiKey(t.db);
      const key = { projectKey: uniqueName("pk"), organizationId: org.id };
      const ctx = context(limiter, "203.0.113.5");
      await limitSdkRequest(ctx, key);
      await limitSdkRequest(ctx, key);
      expect(ctx.responseHeaders.get("ratelimit")).toMatch(/^"sdk";r=0;t=\d+$/);
      const refused = await limitSdkRequest(ctx, key).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(TRPCError);
      expect((refused as TRPCError).code).toBe("TOO_MANY_REQUESTS");
      expect(ctx.responseHeaders.get("retry-after")).toMatch(/^\d+$/);
      // Another address, or another key, has its own budget.
      await limitSdkRequest(context(limiter, "203.0.113.6"), key);
      await limitSdkRequest(ctx, { ...key, projectKey: uniqueName("pk") });

      const generous = await createOrgWithApiKey(t.db);
      await setOrganizationRateLimits(t.db, generous.org.id, { sdkPerMinute: 5 });
      const own = context(limiter, "203.0.113.5");
      await limitSdkRequest(own, { projectKey: uniqueName("pk"), organizationId: generous.org.id });
      expect(own.responseHeaders.get("ratelimit-policy")).toBe('"sdk";q=5;w=60');
    });
  }
});

describe("the calls a signed-out caller reaches (per client IP, and per e-mail address where there is one)", () => {
  type Call = { status: number; headers: Headers; json: { error?: { data: { problem: { status: number; type: string; detail: string } } } } };
  /** One tRPC call over the real endpoint, from `ip`, as `session` (signed out by default). */
  const call = async (services: ReturnType<typeof testServices>, path: string, input: unknown, ip: string, session: { session: SessionToken; organizationId: string } | null = null): Promise<Call> => {
    const query = path === "invitations.get";
    const url = `http://localhost/api/trpc/${path}${query ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ""}`;
    const req = new Request(url, {
      method: query ? "GET" : "POST",
      headers: { "content-type": "application/json", [PEER_ADDRESS_HEADER]: ip },
      ...(query ? {} : { body: JSON.stringify(input ?? {}) }),
    });
    const res = await handleTrpcRequest(req, services, async () => ({ token: session?.session ?? null, organizationId: session?.organizationId ?? null }));
    return { status: res.status, headers: res.headers, json: await res.json() };
  };
  const expectRateLimited = (res: Call, detail: string) => {
    expect(res.status).toBe(429);
    expect(res.json.error?.data.problem).toMatchObject({ status: 429, type: "urn:referloop:problem:rate-limited" });
    expect(res.json.error?.data.problem.detail).toContain(detail);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  };

  it("password-reset requests: per address (known or not) and per client IP; no e-mail once refused", async () => {
    const services = testServices(t.db, { config: testConfig({ RATE_LIMIT_ACCOUNT_EMAILS_PER_ADDRESS_PER_HOUR: "2", RATE_LIMIT_ACCOUNT_EMAILS_PER_IP_PER_HOUR: "3" }) });
    const user = await signUpForTest(t.db, await callerFor(t.db, null, null, services), `${uniqueName("reset")}@example.com`);
    const reset = (email: string, ip: string) => call(services, "accounts.requestPasswordReset", { email }, ip);

    const first = await reset(user.email, "198.51.100.20");
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"account-email-ip";q=3;w=3600, "account-email-address";q=2;w=3600');
    expect((await reset(user.email.toUpperCase(), "198.51.100.21")).status).toBe(200);
    const tokenBefore = await t.db.accountToken.findFirstOrThrow({ where: { userId: user.userId, purpose: "resetPassword" } });
    // The address's third request, from a third IP: refused, and no new link was issued.
    expectRateLimited(await reset(user.email, "198.51.100.22"), "e-mails of this kind: the limit is 2 per hour");
    expect(await t.db.accountToken.findFirstOrThrow({ where: { userId: user.userId, purpose: "resetPassword" } })).toEqual(tokenBefore);
    // An address no account has counts the same (the answer tells nothing).
    const unknown = `${uniqueName("nobody")}@example.com`;
    expect((await reset(unknown, "198.51.100.23")).status).toBe(200);
    expect((await reset(unknown, "198.51.100.23")).status).toBe(200);
    expectRateLimited(await reset(unknown, "198.51.100.24"), "the limit is 2 per hour");
    // One IP, many addresses: its fourth request is refused.
    for (let i = 0; i < 3; i++) expect((await reset(`${uniqueName("spray")}@example.com`, "198.51.100.25")).status).toBe(200);
    expectRateLimited(await reset(`${uniqueName("spray")}@example.com`, "198.51.100.25"), "the limit is 3 per hour");
  });

  it("calls that present an e-mailed link's token (reset, verification, invitations) share one budget per client IP", async () => {
    const services = testServices(t.db, { config: testConfig({ RATE_LIMIT_ACCOUNT_LINKS_PER_IP_PER_HOUR: "3" }) });
    const token = "x".repeat(43);
    const ip = "198.51.100.30";
    expect((await call(services, "accounts.resetPassword", { token, newPassword: "a brand new password" }, ip)).status).toBe(400);
    expect((await call(services, "accounts.verifyEmail", { token }, ip)).status).toBe(400);
    const lookUp = await call(services, "invitations.get", { token }, ip);
    expect(lookUp.status).toBe(404);
    expect(lookUp.headers.get("ratelimit")).toMatch(/^"account-link-ip";r=0;t=\d+$/);
    for (const [path, input] of [
      ["accounts.resetPassword", { token, newPassword: "a brand new password" }],
      ["accounts.verifyEmail", { token }],
      ["invitations.get", { token }],
    ] as const) {
      expectRateLimited(await call(services, path, input, ip), "e-mailed links from your address: the limit is 3 per hour");
    }
    // Signed in does not escape it: accepting an invitation counts too.
    const user = await signUpForTest(t.db, await callerFor(t.db, null, null, services), `${uniqueName("links")}@example.com`);
    expectRateLimited(await call(services, "invitations.accept", { token }, ip, user), "e-mailed links from your address");
    // Another address has its own budget.
    expect((await call(services, "accounts.verifyEmail", { token }, "198.51.100.31")).status).toBe(400);
  });

  it("a new verification link: per account address", async () => {
    const services = testServices(t.db, { config: testConfig({ RATE_LIMIT_ACCOUNT_EMAILS_PER_ADDRESS_PER_HOUR: "1" }) });
    const user = await signUpForTest(t.db, await callerFor(t.db, null, null, services), `${uniqueName("verify")}@example.com`);
    expect((await call(services, "accounts.resendVerification", {}, "198.51.100.40", user)).status).toBe(200);
    expectRateLimited(await call(services, "accounts.resendVerification", {}, "198.51.100.41", user), "the limit is 1 per hour");
  });
});
