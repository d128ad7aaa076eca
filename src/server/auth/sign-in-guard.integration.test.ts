import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpBody } from "@/lib/schemas/accounts";
import { signUp } from "@/server/domain/accounts/sign-up";
import { verifyCredentials } from "@/server/domain/accounts/verify-credentials";
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
afterAll(() => t?.drop());

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
