-- The review queue's history of decisions (issue 38 item 5): who approved or denied a held reward,
-- with what outcome and, for a denial, the reason in words.
CREATE TABLE "ReviewDecision" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "trackingId" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "note" TEXT,
    "heldFor" TEXT[],
    "status" "TrackingStatus" NOT NULL,
    "failureReason" TEXT,
    "actorType" TEXT,
    "actorLabel" TEXT,
    "decidedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewDecision_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "ReviewDecision_projectId_decidedAt_id_idx" ON "ReviewDecision"("projectId", "decidedAt" DESC, "id" DESC);
CREATE INDEX "ReviewDecision_trackingId_idx" ON "ReviewDecision"("trackingId");

ALTER TABLE "ReviewDecision" ADD CONSTRAINT "ReviewDecision_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ReviewDecision" ADD CONSTRAINT "ReviewDecision_trackingId_fkey" FOREIGN KEY ("trackingId") REFERENCES "ReferralTracking"("id") ON DELETE CASCADE ON UPDATE CASCADE;
