-- Indexes for listing app users in large projects (see bench/README.md, Findings).

-- Trigram operators for the client-id substring search (ILIKE '%term%'). Created here rather than
-- through the schema's `postgresqlExtensions` preview feature, with which db:check reports the
-- extension as missing after replaying the migrations.
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- DropIndex
DROP INDEX "AppUser_projectId_successfulReferrals_idx";

-- DropIndex
DROP INDEX "AppUser_projectId_totalReferralsGiven_idx";

-- CreateIndex
CREATE INDEX "AppUser_projectId_idx" ON "AppUser"("projectId");

-- CreateIndex
CREATE INDEX "AppUser_projectId_successfulReferrals_id_idx" ON "AppUser"("projectId", "successfulReferrals", "id");

-- CreateIndex
CREATE INDEX "AppUser_projectId_totalReferralsGiven_id_idx" ON "AppUser"("projectId", "totalReferralsGiven", "id");

-- CreateIndex
-- NULLS LAST by hand: the list orders never-seen users last in both directions, and a DESC index
-- defaults to NULLS FIRST, which the planner cannot use for that order. Prisma cannot express it
-- and ignores it when comparing the schema with the migrations.
CREATE INDEX "AppUser_projectId_lastSeenAt_desc_idx" ON "AppUser"("projectId", "lastSeenAt" DESC NULLS LAST, "id" DESC);

-- CreateIndex
CREATE INDEX "AppUser_clientProvidedId_trgm_idx" ON "AppUser" USING GIN ("clientProvidedId" gin_trgm_ops);

-- The planner estimates ILIKE '%term%' from the column's histogram: with the default 100 entries,
-- one entry that happens to match reads as 1% of the table, and the page query then walks the
-- sort-order index filtering every row instead of reading the few matches from the trigram index
-- (about 4% of 4-digit terms at 100,000 users, and on a term with almost no matches it scans the
-- whole project). 1,000 entries made every one of 300 such terms use the trigram index; ANALYZE
-- then samples up to 300,000 rows of the table instead of 30,000. Prisma does not compare this.
ALTER TABLE "AppUser" ALTER COLUMN "clientProvidedId" SET STATISTICS 1000;
