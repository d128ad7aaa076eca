-- Data rights and reward rules (issue 27).
-- Erasing an app user deletes its row; the tracking items and reward history that named it stay
-- (their status, and the other party's counters), with that party's id set to null and, on tracking
-- items, marked erased. Hence nullable parties whose foreign keys set null instead of cascading.
-- DropForeignKey
ALTER TABLE "ReferralTracking" DROP CONSTRAINT "ReferralTracking_refereeId_fkey";

-- DropForeignKey
ALTER TABLE "ReferralTracking" DROP CONSTRAINT "ReferralTracking_referrerId_fkey";

-- DropForeignKey
ALTER TABLE "RewardHistory" DROP CONSTRAINT "RewardHistory_refereeId_fkey";

-- DropForeignKey
ALTER TABLE "RewardHistory" DROP CONSTRAINT "RewardHistory_referrerId_fkey";

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "rewardRules" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "ReferralTracking" ADD COLUMN     "refereeErased" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "referrerErased" BOOLEAN NOT NULL DEFAULT false,
ALTER COLUMN "referrerId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "RewardHistory" ALTER COLUMN "referrerId" DROP NOT NULL,
ALTER COLUMN "refereeId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "RewardReview" (
    "trackingId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "eventName" TEXT NOT NULL,
    "environment" "RewardEnvironment",
    "reasons" TEXT[],
    "holdUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RewardReview_pkey" PRIMARY KEY ("trackingId")
);

-- CreateTable
CREATE TABLE "AppUserSighting" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "appUserId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AppUserSighting_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RewardReview_projectId_createdAt_idx" ON "RewardReview"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "RewardReview_holdUntil_idx" ON "RewardReview"("holdUntil");

-- CreateIndex
CREATE INDEX "AppUserSighting_projectId_kind_value_idx" ON "AppUserSighting"("projectId", "kind", "value");

-- CreateIndex
CREATE UNIQUE INDEX "AppUserSighting_appUserId_kind_value_key" ON "AppUserSighting"("appUserId", "kind", "value");

-- AddForeignKey
ALTER TABLE "ReferralTracking" ADD CONSTRAINT "ReferralTracking_referrerId_fkey" FOREIGN KEY ("referrerId") REFERENCES "AppUser"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReferralTracking" ADD CONSTRAINT "ReferralTracking_refereeId_fkey" FOREIGN KEY ("refereeId") REFERENCES "AppUser"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RewardHistory" ADD CONSTRAINT "RewardHistory_referrerId_fkey" FOREIGN KEY ("referrerId") REFERENCES "AppUser"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RewardHistory" ADD CONSTRAINT "RewardHistory_refereeId_fkey" FOREIGN KEY ("refereeId") REFERENCES "AppUser"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RewardReview" ADD CONSTRAINT "RewardReview_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RewardReview" ADD CONSTRAINT "RewardReview_trackingId_fkey" FOREIGN KEY ("trackingId") REFERENCES "ReferralTracking"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AppUserSighting" ADD CONSTRAINT "AppUserSighting_appUserId_fkey" FOREIGN KEY ("appUserId") REFERENCES "AppUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The unordered-pair key (migration 20261122200100) reads LEAST/GREATEST of both parties, which skip
-- nulls: two rewards of one referrer whose referees were both erased would clash. A pair with an
-- erased party can never be rewarded again, so the key covers complete pairs only.
DROP INDEX "RewardHistory_pair_key";
CREATE UNIQUE INDEX "RewardHistory_pair_key" ON "RewardHistory" (LEAST("referrerId", "refereeId"), GREATEST("referrerId", "refereeId"))
  WHERE NOT "grandfathered" AND "referrerId" IS NOT NULL AND "refereeId" IS NOT NULL;
