import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpBody } from "@/lib/schemas/accounts";
import { signUp } from "@/server/domain/accounts/sign-up";
import { verifyCredentials } from "@/server/domain/accounts/verify-credentials";
import { connectRedis } from "@/server/rate-limit/app-rate-limiter";
import { RateLimiter, type LimitOutcome } from "@/server/rate-limit/rate-limiter";
import { testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { uniqueName } from "@/test/names";
import { guardSignIn, SignInRefused, type SignInGuard } from "./sign-in-guard";

/*
 * The sign-in limits around the real credentials check (scrypt against the test's database).
 * The 429 over HTTP and the form's message are checked end to end in e2e/security.spec.ts.
 */

let t: TestDb;
const PASSWORD = "a-long-sign-in-password";
let email: string;

beforeAll(async () => {
  t = await createTestDb();
  email = `${uniqueName("owner")}@example.com`.toLowerCase();
  await signUp(t.db, await signUpBody.parseAsync({ email, password: PASSWORD, organizationName: "Org" }));
});
const redisPrefix = uniqueName("sign-in-test");
const redis = connectRedis("redis://127.0.0.1:6379");
afterAll(async () => {
  const keys = await redis.keys(`${redisPrefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit().catch(() => redis.disconnect());
  await t?.drop();
});

const guard = (over: Partial<SignInGuard> & { env?: Record<string, string> } = {}): SignInGuard => ({
  limiter: new RateLimiter(),
  config: testConfig({ SIGN_IN_LOCKOUT_FAILURES: "3", SIGN_IN_LOCKOUT_SECONDS: "600", RATE_LIMIT_SIGN_IN_PER_IP_PER_HOUR: "100", ...over.env }),
  ip: "192.0.2.10",
  ...over,
});

/** One attempt: the user, null for a wrong password, or the refusal; and whether the password was checked. */
async function attempt(g: SignInGuard, address: string, password: string) {
  let checked = false;
  const result = await guardSignIn(g, address, async () => {
    checked = true;
    return verifyCredentials(t.db, address, password);
  }).catch((error: unknown) => error);
  return { result, checked };
}

describe("sign-in limits", () => {
  it("lock an address after consecutive failures, before any password is checked, even the right one", async () => {
    const g = guard();
    for (let i = 0; i < 3; i++) expect(await attempt(g, email, "wrong-password-123")).toEqual({ result: null, checked: true });
    const locked = await attempt(g, email, PASSWORD);
    expect(locked.result).toBeInstanceOf(SignInRefused);
    expect((locked.result as SignInRefused).retryAfterSeconds).toBeGreaterThan(590);
    expect(locked.checked).toBe(false);
    // Any spelling of the address is the same address.
    expect((await attempt(g, ` ${email.toUpperCase()} `, PASSWORD)).result).toBeInstanceOf(SignInRefused);
  });

  it("treat an address without an account exactly the same: nothing reveals whether it exists", async () => {
    const g = guard();
    const nobody = `${uniqueName("nobody")}@example.com`;
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const [real, fake] = [await attempt(g, email, "wrong-password-123"), await attempt(g, nobody, "wrong-password-123")];
      answers.push([real, fake]);
    }
    for (const [real, fake] of answers) {
      expect(fake!.checked).toBe(real!.checked);
      expect(fake!.result === null).toBe(real!.result === null);
      expect(fake!.result instanceof SignInRefused).toBe(real!.result instanceof SignInRefused);
    }
    expect(answers.at(-1)![1]!.result).toBeInstanceOf(SignInRefused);
  });

  it("forget the failures after a successful sign-in", async () => {
    const g = guard();
    for (let i = 0; i < 2; i++) await attempt(g, email, "wrong-password-123");
    expect((await attempt(g, email, PASSWORD)).result).toMatchObject({ email });
    for (let i = 0; i < 2; i++) expect((await attempt(g, email, "wrong-password-123")).result).toBeNull();
    expect((await attempt(g, email, PASSWORD)).result).toMatchObject({ email });
  });

  it("limit attempts per client IP, whatever the address, and report each outcome for the RateLimit headers", async () => {
    const outcomes: LimitOutcome[] = [];
    const g = guard({ env: { RATE_LIMIT_SIGN_IN_PER_IP_PER_HOUR: "2" }, record: (o) => outcomes.push(o) });
    expect((await attempt(g, email, PASSWORD)).result).toMatchObject({ email });
    expect((await attempt(g, `${uniqueName("x")}@example.com`, "whatever-password")).result).toBeNull();
    const third = await attempt(g, email, PASSWORD);
    expect(third.result).toBeInstanceOf(SignInRefused);
    expect(third.checked).toBe(false);
    expect(outcomes.map((o) => [o.policy, o.remaining, o.allowed])).toEqual([
      ["sign-in-ip", 1, true],
      ["sign-in-ip", 0, true],
      ["sign-in-ip", 0, false],
    ]);
    // Another address is another budget.
    expect((await attempt({ ...g, ip: "192.0.2.11" }, email, PASSWORD)).result).toMatchObject({ email });
  });
});

describe("the lockout under concurrency", () => {
  // In this process, and in Redis as instances behind a load balancer share it.
  const limiters = {
    memory: () => new RateLimiter(),
    redis: () => new RateLimiter({ redis, keyPrefix: `${redisPrefix}:${uniqueName("run")}` }),
  };
  for (const [store, limiter] of Object.entries(limiters)) {
    it(`${store}: of 12 simultaneous wrong passwords at most 5 reach the password check; the rest are refused`, async () => {
      for (let run = 0; run < 3; run++) {
        const g = guard({ limiter: limiter(), env: { SIGN_IN_LOCKOUT_FAILURES: "5" } });
        const attempts = await Promise.all(Array.from({ length: 12 }, () => attempt(g, email, "wrong-password-123")));
        const checked = attempts.filter((a) => a.checked);
        expect(checked.length).toBeLessThanOrEqual(5);
        expect(checked.every((a) => a.result === null)).toBe(true);
        const refused = attempts.filter((a) => a.result instanceof SignInRefused);
        expect(refused.length).toBe(12 - checked.length);
        expect(refused.every((a) => !a.checked)).toBe(true);
        // And the address is locked now: even the right password is refused unchecked.
        expect(await attempt(g, email, PASSWORD)).toMatchObject({ result: expect.any(SignInRefused), checked: false });
      }
    });

    it(`${store}: a success gives its reserved attempt back, so the right password works among wrong ones`, async () => {
      const g = guard({ limiter: limiter(), env: { SIGN_IN_LOCKOUT_FAILURES: "5" } });
      const attempts = await Promise.all([
        ...Array.from({ length: 4 }, () => attempt(g, email, "wrong-password-123")),
        attempt(g, email, PASSWORD),
      ]);
      expect(attempts.at(-1)!.result).toMatchObject({ email });
      expect(attempts.slice(0, 4).every((a) => a.checked && a.result === null)).toBe(true);
      // The success cleared the count: four more failures still leave the right password its turn.
      for (let i = 0; i < 4; i++) expect((await attempt(g, email, "wrong-password-123")).result).toBeNull();
      expect((await attempt(g, email, PASSWORD)).result).toMatchObject({ email });
    });
  }
});
