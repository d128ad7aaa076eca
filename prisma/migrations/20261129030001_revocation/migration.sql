-- Revocation: a referral's reward taken back (status Revoked, when, why and by what), inbound events
-- that revoke, and the provider ids of what a rewarded event paid for, by which a refund finds it.
ALTER TYPE "InboundOutcome" ADD VALUE 'revoked';
ALTER TYPE "TrackingStatus" ADD VALUE 'Revoked';

ALTER TABLE "InboundEvent" ADD COLUMN "refs" TEXT[] DEFAULT ARRAY[]::TEXT[];
CREATE INDEX "InboundEvent_refs_idx" ON "InboundEvent" USING GIN ("refs");

ALTER TABLE "ReferralTracking" ADD COLUMN "revokeReason" TEXT,
ADD COLUMN "revokedAt" TIMESTAMP(3),
ADD COLUMN "revokedBy" TEXT;

-- Which provider events revoke (revokeOn in src/lib/schemas/reward-rules.ts); {} is all on.
ALTER TABLE "Campaign" ADD COLUMN "revokeOn" JSONB NOT NULL DEFAULT '{}';
