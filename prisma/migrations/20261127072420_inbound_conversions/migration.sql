-- CreateEnum
CREATE TYPE "InboundProvider" AS ENUM ('stripe', 'revenuecat');

-- CreateEnum
CREATE TYPE "InboundOutcome" AS ENUM ('rewarded', 'ignored', 'refused');

-- CreateTable
CREATE TABLE "InboundHook" (
    "projectId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "tokenEncrypted" TEXT NOT NULL,
    "stripeSecretEncrypted" TEXT,
    "revenueCatAuthEncrypted" TEXT,
    "eventNames" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InboundHook_pkey" PRIMARY KEY ("projectId")
);

-- CreateTable
CREATE TABLE "InboundEvent" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "provider" "InboundProvider" NOT NULL,
    "providerEventId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "environment" "RewardEnvironment" NOT NULL,
    "refereeId" TEXT,
    "eventName" TEXT,
    "trackingId" TEXT,
    "outcome" "InboundOutcome",
    "reason" TEXT,
    "productId" TEXT,
    "periodType" TEXT,
    "claimedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InboundEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "InboundHook_tokenHash_key" ON "InboundHook"("tokenHash");

-- CreateIndex
CREATE INDEX "InboundEvent_projectId_createdAt_id_idx" ON "InboundEvent"("projectId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "InboundEvent_projectId_refereeId_productId_idx" ON "InboundEvent"("projectId", "refereeId", "productId");

-- CreateIndex
CREATE UNIQUE INDEX "InboundEvent_projectId_provider_providerEventId_key" ON "InboundEvent"("projectId", "provider", "providerEventId");

-- AddForeignKey
ALTER TABLE "InboundHook" ADD CONSTRAINT "InboundHook_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InboundEvent" ADD CONSTRAINT "InboundEvent_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

