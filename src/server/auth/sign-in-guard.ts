import { AsyncLocalStorage } from "node:async_hooks";
import { SIGN_IN_REFUSED } from "@/lib/schemas/accounts";
import type { Config } from "@/server/config";
import type { LimitOutcome, RateLimiter } from "@/server/rate-limit/rate-limiter";

/**
 * Sign-in protection, around the credentials check:
 * - per client IP, every attempt counts (RATE_LIMIT_SIGN_IN_PER_IP_PER_HOUR);
 * - per e-mail address, SIGN_IN_LOCKOUT_FAILURES failed attempts in a row (within
 *   SIGN_IN_LOCKOUT_SECONDS) lock the address for SIGN_IN_LOCKOUT_SECONDS; a success clears the count.
 * Each attempt reserves its failure before the password is checked, and a success gives it back (and
 * clears the count): checking the lock, then the password, then counting let a burst of simultaneous
 * guesses all pass the check before any was counted. So at most SIGN_IN_LOCKOUT_FAILURES attempts
 * reach the password check per window, however many arrive at once.
 * Addresses are counted whether or not an account has them, and a locked address is refused before
 * any password is checked, so the answers (and their timing) are the same for an account that does
 * not exist: the lockout reveals nothing. It does let someone who knows an address lock its owner out
 * of password sign-in for a while, which is why it is short; the per-IP limit slows the guessing itself.
 */

export class SignInRefused extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(SIGN_IN_REFUSED);
    this.name = "SignInRefused";
  }
}

export type SignInGuard = {
  limiter: RateLimiter;
  config: Pick<Config, "rateLimits">;
  /** The client's address, when known. */
  ip: string | null;
  /** Told every quota outcome, for the response's RateLimit headers. */
  record?: (outcome: LimitOutcome) => void;
};

const HOUR = 60 * 60;
const FAILURES = "sign-in-failures";

/** Runs `verify` (the password check) under the limits; throws SignInRefused when one refuses. */
export async function guardSignIn<User>(guard: SignInGuard, email: string, verify: () => Promise<User | null>): Promise<User | null> {
  const { limiter, ip } = guard;
  const { signInPerIpPerHour, signInLockoutFailures, signInLockoutSeconds } = guard.config.rateLimits;
  if (ip) {
    const outcome = await limiter.consume("sign-in-ip", ip, { points: signInPerIpPerHour, windowSeconds: HOUR });
    if (outcome) guard.record?.(outcome);
    if (outcome && !outcome.allowed) throw new SignInRefused(outcome.resetSeconds);
  }
  const address = email.trim().toLowerCase();
  const failures = { points: signInLockoutFailures, windowSeconds: signInLockoutSeconds };
  const reserved = await limiter.consume(FAILURES, address, failures);
  if (reserved && !reserved.allowed) throw new SignInRefused(reserved.resetSeconds);
  const user = await verify();
  if (user) {
    await limiter.reset(FAILURES, address, failures);
    return user;
  }
  // The last failure allowed locks the address for the whole lockout, from now.
  if (reserved && reserved.remaining === 0) await limiter.block(FAILURES, address, failures, signInLockoutSeconds);
  return null;
}

/**
 * What one sign-in request learnt, for its route to turn into headers (and a 429). The route opens one
 * for every next-auth request, so sign-out finds the client's address here too.
 */
export type SignInExchange = { ip: string | null; outcomes: LimitOutcome[]; refused: SignInRefused | null };

const exchanges = new AsyncLocalStorage<SignInExchange>();

/** Runs a next-auth request (its handler) so that `authorize` and the sign-out event can find its exchange. */
export function withSignInExchange<T>(exchange: SignInExchange, run: () => Promise<T>): Promise<T> {
  return exchanges.run(exchange, run);
}

export const currentSignInExchange = (): SignInExchange | undefined => exchanges.getStore();
