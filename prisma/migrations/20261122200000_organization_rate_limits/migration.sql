-- An organisation's own quotas, set by an operator (npm run admin -- rate-limits); NULL keeps the
-- server-wide defaults (RATE_LIMIT_API_KEY_PER_MINUTE, RATE_LIMIT_SDK_PER_MINUTE), 0 means no limit.

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "apiRateLimitPerMinute" INTEGER,
ADD COLUMN     "sdkRateLimitPerMinute" INTEGER;
