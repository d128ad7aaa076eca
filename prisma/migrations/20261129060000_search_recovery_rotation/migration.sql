-- Rotation with an overlap: the project secret before the last rotation, accepted until it expires.
ALTER TABLE "Project" ADD COLUMN "previousSecretHash" TEXT,
ADD COLUMN "previousSecretEncrypted" TEXT,
ADD COLUMN "previousSecretExpiresAt" TIMESTAMP(3);
CREATE UNIQUE INDEX "Project_previousSecretHash_key" ON "Project"("previousSecretHash");

-- A webhook's previous secret (deliveries carry both signatures until it expires), and its recovery.
ALTER TABLE "Webhook" ADD COLUMN "autoRecover" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "previousSecretEncrypted" TEXT,
ADD COLUMN "previousSecretExpiresAt" TIMESTAMP(3);

ALTER TABLE "Delivery" ADD COLUMN "recoveredAt" TIMESTAMP(3);

-- Recovery's candidates: a webhook's exhausted deliveries not yet sent again by recovery, by when
-- they last failed. Partial, so the index holds only those (Prisma cannot say so: migration only).
CREATE INDEX "Delivery_recoverable_idx" ON "Delivery" ("webhookId", "lastAttemptAt")
  WHERE "status" = 'Failed' AND "failure" = 'exhausted' AND "recoveredAt" IS NULL;

-- Search by what people know (expression indexes: migration only).
-- App users by e-mail or name, case-insensitive prefix: lower(value) LIKE 'term%' reads a range of
-- these (text_pattern_ops compares bytes, so a prefix is a range whatever the database's collation).
CREATE INDEX "AppUser_email_prefix_idx" ON "AppUser" ("projectId", lower("attributes"->>'email') text_pattern_ops);
CREATE INDEX "AppUser_name_prefix_idx" ON "AppUser" ("projectId", lower("attributes"->>'name') text_pattern_ops);
-- Deliveries and referrals by the short id their tables show (the id's first 8 characters).
CREATE INDEX "Delivery_short_id_idx" ON "Delivery" ("projectId", left("id", 8));
CREATE INDEX "ReferralTracking_short_id_idx" ON "ReferralTracking" ("projectId", left("id", 8));
