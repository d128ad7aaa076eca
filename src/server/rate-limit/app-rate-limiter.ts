import { Redis } from "ioredis";
import type { Config } from "@/server/config";
import { RateLimiter } from "./rate-limiter";
import { logger } from "@/server/observability/logger";

/** Redis for rate-limit counters: commands fail fast while it is unreachable, so the memory fallback answers. */
export function connectRedis(url: string): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  redis.on("error", (error) => logger().warn({ err: error }, "rate limits: Redis error"));
  return redis;
}

// On globalThis: Next's route bundles and the instrumentation hook do not share module state.
const shared = globalThis as typeof globalThis & { referloopRateLimiter?: RateLimiter };

/** This process's rate limiter: one for all requests, so their counters add up. */
export function appRateLimiter(config: Config): RateLimiter {
  return (shared.referloopRateLimiter ??= new RateLimiter({
    redis: config.redisUrl ? connectRedis(config.redisUrl) : null,
    keyPrefix: config.redisKeyPrefix,
  }));
}
