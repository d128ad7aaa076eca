-- The referrer's own page: campaign milestones and portal settings, and the milestones reached.
ALTER TABLE "Campaign" ADD COLUMN "milestones" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN "portal" JSONB NOT NULL DEFAULT '{}';

CREATE TABLE "MilestoneReached" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "appUserId" TEXT NOT NULL,
    "referrals" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "trackingId" TEXT,
    "reachedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MilestoneReached_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "MilestoneReached_appUserId_referrals_key" ON "MilestoneReached"("appUserId", "referrals");
CREATE INDEX "MilestoneReached_projectId_reachedAt_idx" ON "MilestoneReached"("projectId", "reachedAt");

ALTER TABLE "MilestoneReached" ADD CONSTRAINT "MilestoneReached_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "MilestoneReached" ADD CONSTRAINT "MilestoneReached_appUserId_fkey" FOREIGN KEY ("appUserId") REFERENCES "AppUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A referrer's summary (totals, a page of friends) read from the index alone: the referrer's index
-- gains the columns the summary reads.
DROP INDEX "ReferralTracking_referrerId_createdAt_idx";
CREATE INDEX "ReferralTracking_referrer_summary_idx" ON "ReferralTracking"("referrerId", "createdAt", "id", "status", "refereeId", "refereeErased");
