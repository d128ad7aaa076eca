import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

/**
 * Counting requests against quotas, with rate-limiter-flexible. Each quota is the library's "enhanced
 * fixed window": the first request of a key opens a window of `windowSeconds` in which `points`
 * requests pass, spent at any pace (a whole quota may come as one burst); the next request after the
 * window opens a new one. Counters live in this process, or in Redis when one is configured so that
 * every instance spends one budget; if Redis fails, each instance falls back to counting in memory
 * (the library's insurance limiter) rather than refusing or waving everything through.
 */

/** A quota: `points` requests per `windowSeconds`. */
export type Quota = { points: number; windowSeconds: number };

/** One policy's answer for one request: whether it passes, and what is left (for the RateLimit headers). */
export type LimitOutcome = {
  /** The policy's name in the RateLimit headers, e.g. "api-key". */
  policy: string;
  quota: Quota;
  allowed: boolean;
  remaining: number;
  /** Seconds until the window ends (and, when refused, until a request can pass). */
  resetSeconds: number;
};

export type RateLimiterStore = { redis: Redis | null; keyPrefix: string };

export class RateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly store: RateLimiterStore = { redis: null, keyPrefix: "referloop" }) {}

  /** Spends one request of `key` under `policy`; `quota.points` 0 means no limit (null). */
  async consume(policy: string, key: string, quota: Quota): Promise<LimitOutcome | null> {
    if (quota.points <= 0) return null;
    const limiter = this.limiter(policy, quota);
    let res: RateLimiterRes;
    let allowed = true;
    try {
      res = await limiter.consume(key);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      res = refusal;
      allowed = false;
    }
    return { policy, quota, allowed, remaining: Math.max(0, res.remainingPoints), resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
  }

  /** Refuses `key` under `policy` for `seconds` from now, whatever it spent. */
  async block(policy: string, key: string, quota: Quota, seconds: number): Promise<void> {
    await this.limiter(policy, quota).block(key, seconds);
  }

  /** Forgets what `key` spent under `policy`. */
  async reset(policy: string, key: string, quota: Quota): Promise<void> {
    await this.limiter(policy, quota).delete(key);
  }

  /** One limiter per policy and quota: an organisation's own quota counts in its own keys. */
  private limiter(policy: string, quota: Quota): RateLimiterAbstract {
    const keyPrefix = `${this.store.keyPrefix}:rl:${policy}:${quota.points}/${quota.windowSeconds}`;
    let limiter = this.limiters.get(keyPrefix);
    if (!limiter) {
      const options = { keyPrefix, points: quota.points, duration: quota.windowSeconds };
      const memory = new RateLimiterMemory(options);
      limiter = this.store.redis ? new RateLimiterRedis({ ...options, storeClient: this.store.redis, insuranceLimiter: memory }) : memory;
      this.limiters.set(keyPrefix, limiter);
    }
    return limiter;
  }
}
