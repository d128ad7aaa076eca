-- The client-library (SDK) endpoints: project publishable keys, identity verification, and referral
-- tracking items whose referee is not known yet (an anonymous landing page tracks the arrival; the
-- referee is bound later by init-app-user or track-reward-event).

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "identityVerification" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "publishableKey" TEXT,
ADD COLUMN     "secretEncrypted" TEXT;

-- Every existing project gets its publishable key: "pk_" + base64url of 32 random bytes, the form the
-- app issues (two v4 UUIDs give 244 random bits from the server's strong random source).
UPDATE "Project" SET "publishableKey" = 'pk_' || rtrim(translate(encode(decode(
  replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '+/', '-_'), '=');

ALTER TABLE "Project" ALTER COLUMN "publishableKey" SET NOT NULL;

-- Allowed origins are now enforced and compared exactly with the browser's Origin header, which never
-- ends in a slash; the schema used to accept one.
UPDATE "Project" SET "allowedOrigins" = ARRAY(SELECT rtrim(o, '/') FROM unnest("allowedOrigins") AS o)
WHERE EXISTS (SELECT FROM unnest("allowedOrigins") AS o WHERE o LIKE '%/');

-- AlterTable
ALTER TABLE "ReferralTracking" ALTER COLUMN "refereeId" DROP NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "Project_publishableKey_key" ON "Project"("publishableKey");
