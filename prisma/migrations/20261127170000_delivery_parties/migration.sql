-- Each delivery's tracking-item parties (AppUser ids) on the delivery itself, so that a list of
-- deliveries with their parties joins the users by key without reading each tracking item (see
-- Delivery.referrerId in schema.prisma). Not foreign keys, on purpose.

-- AlterTable
ALTER TABLE "Delivery" ADD COLUMN     "refereeId" TEXT,
ADD COLUMN     "referrerId" TEXT;

-- The deliveries written before: their items' parties as they stand (null where erased).
UPDATE "Delivery" d SET "referrerId" = t."referrerId", "refereeId" = t."refereeId"
FROM "ReferralTracking" t
WHERE t."id" = d."trackingId" AND (t."referrerId" IS NOT NULL OR t."refereeId" IS NOT NULL);
