-- AlterTable
ALTER TABLE "Activity" ADD COLUMN     "trackingId" TEXT;

-- CreateIndex
CREATE INDEX "Activity_projectId_type_createdAt_idx" ON "Activity"("projectId", "type", "createdAt");

-- CreateIndex
CREATE INDEX "Activity_trackingId_idx" ON "Activity"("trackingId");

-- CreateIndex
CREATE INDEX "ReferralTracking_projectId_createdAt_idx" ON "ReferralTracking"("projectId", "createdAt");
