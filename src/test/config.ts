import { loadConfig, type Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import type { Services } from "@/server/api/trpc/context";
import type { DeliveryScheduler } from "@/server/jobs/scheduler";
import { attemptOptions } from "@/server/jobs/attempt-options";
import { RateLimiter } from "@/server/rate-limit/rate-limiter";
import { CredentialCache } from "@/server/db/credential-cache";

/**
 * The configuration tests run with, built like the app's from variables: URL rules relaxed so webhooks
 * reach the test's receivers on http://127.0.0.1, e-mailed links built on the request's host, and a
 * fast retry schedule. A test that needs another setting passes its own variables here instead of
 * changing the environment (an empty value is unset: the guard's default).
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    REFERLOOP_ALLOW_HTTP_URLS: "true",
    REFERLOOP_ALLOW_HOST_LINKS: "true",
    WEBHOOK_RETRY_BASE_MS: "40",
    REFERLOOP_ACCESS_LOG: "0",
    REFERLOOP_DATA_DIR: process.env.REFERLOOP_DATA_DIR,
    REFERLOOP_ENCRYPTION_KEY: process.env.REFERLOOP_ENCRYPTION_KEY,
    ...env,
  });
}

/** Every guard at its default: https, public addresses only, no links from the Host header. */
export const guardedConfig = () => testConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: "", REFERLOOP_ALLOW_HTTP_URLS: "", REFERLOOP_ALLOW_HOST_LINKS: "" });

/** What performAttempt and the workers get under testConfig(). */
export const testAttemptOptions = (config: Config = testConfig()) => attemptOptions(config);

/** A scheduler that records what it was told (the real ones are tested in src/server/jobs). */
export function recordingScheduler(): DeliveryScheduler & { enqueued: string[] } {
  const enqueued: string[] = [];
  return {
    kind: "embedded",
    enqueued,
    lease: async () => null,
    async dispatch(write) {
      enqueued.push(...write.deliveries.map((d) => d.id));
    },
    async enqueue(deliveryIds) {
      enqueued.push(...deliveryIds);
    },
  };
}

/**
 * The services a request gets, around the test's database (with rate-limit counters of their own, in
 * memory, and a credential cache that follows no database, so it never holds anything).
 */
export function testServices(db: Db, overrides: Partial<Services> = {}): Services {
  return { db, config: testConfig(), scheduler: recordingScheduler(), limiter: new RateLimiter(), credentials: new CredentialCache(), ...overrides };
}
