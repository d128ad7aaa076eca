-- The overview (stats over a range of UTC days) reads indexes only, so that it stays fast at
-- millions of rows without roll-up tables written by the reward path; see src/server/domain/stats.
-- DropIndex
DROP INDEX "RewardEvent_projectId_createdAt_idx";

-- DropIndex
DROP INDEX "RewardHistory_projectId_claimedAt_idx";

-- CreateTable
CREATE TABLE "LinkClickDay" (
    "projectId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "clicks" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "LinkClickDay_pkey" PRIMARY KEY ("projectId","day")
);

-- CreateIndex
CREATE INDEX "DeliveryAttempt_projectId_createdAt_success_responseTimeMs_idx" ON "DeliveryAttempt"("projectId", "createdAt", "success", "responseTimeMs");

-- CreateIndex
CREATE INDEX "RewardEvent_projectId_createdAt_outcome_eventName_reason_idx" ON "RewardEvent"("projectId", "createdAt", "outcome", "eventName", "reason");

-- CreateIndex
CREATE INDEX "RewardHistory_projectId_claimedAt_referrerId_idx" ON "RewardHistory"("projectId", "claimedAt", "referrerId");

-- AddForeignKey
ALTER TABLE "LinkClickDay" ADD CONSTRAINT "LinkClickDay_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Referrals that failed, by when they failed: a Failed item is final, so its updatedAt is the moment
-- it failed. Partial (failures only); Prisma cannot express it and ignores it when comparing.
CREATE INDEX "ReferralTracking_failed_idx" ON "ReferralTracking" ("projectId", "updatedAt") WHERE "status" = 'Failed';

-- The clicks still kept (within their match window) counted into their days.
INSERT INTO "LinkClickDay" ("projectId", "day", "clicks")
SELECT "projectId", "createdAt"::date, count(*)::int FROM "LinkClick" GROUP BY 1, 2;
