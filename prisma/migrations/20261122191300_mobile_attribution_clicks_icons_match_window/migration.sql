-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "matchWindowMinutes" INTEGER NOT NULL DEFAULT 120;

-- AlterTable
ALTER TABLE "LinkClick" ADD COLUMN     "matchMethod" TEXT,
ADD COLUMN     "osVersion" TEXT;

-- CreateTable
CREATE TABLE "AppIcon" (
    "sha256" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AppIcon_pkey" PRIMARY KEY ("sha256")
);

-- CreateIndex
CREATE INDEX "LinkClick_createdAt_idx" ON "LinkClick"("createdAt");
