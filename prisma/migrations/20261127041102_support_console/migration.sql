-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "bodiesPurgedAt" TIMESTAMP(3),
ADD COLUMN     "failure" TEXT,
ADD COLUMN     "lastAttemptAt" TIMESTAMP(3),
ADD COLUMN     "lastHttpStatus" INTEGER,
ALTER COLUMN "trackingId" DROP NOT NULL,
ALTER COLUMN "payload" DROP NOT NULL;

-- AlterTable
ALTER TABLE "DeliveryAttempt" ADD COLUMN     "requestSignature" TEXT,
ADD COLUMN     "requestTimestamp" INTEGER,
ADD COLUMN     "requestUrl" TEXT;

-- AlterTable
ALTER TABLE "Webhook" ADD COLUMN     "disabledAt" TIMESTAMP(3),
ADD COLUMN     "disabledReason" TEXT,
ADD COLUMN     "failingNotifiedAt" TIMESTAMP(3),
ADD COLUMN     "failingSince" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Delivery_trackingId_idx" ON "Delivery"("trackingId");

-- CreateIndex
CREATE INDEX "Delivery_projectId_status_createdAt_idx" ON "Delivery"("projectId", "status", "createdAt");

-- What the support console lists for deliveries recorded before this release: their latest attempt,
-- and why a Failed one failed. A delivery that used its 5 attempts on answers worth retrying (none,
-- 408, 429, 5xx) was exhausted; any other was dead-lettered by a permanent answer.
UPDATE "Delivery" d SET "lastAttemptAt" = a."createdAt", "lastHttpStatus" = a."httpStatus"
FROM (
  SELECT DISTINCT ON ("deliveryId") "deliveryId", "createdAt", "httpStatus"
  FROM "DeliveryAttempt" ORDER BY "deliveryId", "attemptNumber" DESC
) a
WHERE a."deliveryId" = d."id";

UPDATE "Delivery" SET "failure" = CASE
    WHEN "attemptCount" >= 5 AND ("lastHttpStatus" IS NULL OR "lastHttpStatus" IN (408, 429) OR "lastHttpStatus" >= 500) THEN 'exhausted'
    ELSE 'dead_lettered'
  END
WHERE "status" = 'Failed';

-- The retention purge's work list: finished deliveries whose bodies are still kept, by their latest
-- attempt. Partial, so a delivery enters it once (when it finishes) and leaves it when purged; Prisma
-- cannot express it and ignores it when comparing the schema with the migrations.
CREATE INDEX "Delivery_bodies_kept_idx" ON "Delivery" ("lastAttemptAt") WHERE "status" <> 'Pending' AND "bodiesPurgedAt" IS NULL;
