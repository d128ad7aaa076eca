-- Reward-farming rules: a referee completes at most one referral per project (the first arrival by
-- default, the last with a campaign's attributionModel = 'last'), and two users never both reward
-- each other. Code decides which item may complete; these indexes make the outcome hold under
-- concurrency whatever code runs.

-- CreateEnum
CREATE TYPE "AttributionModel" AS ENUM ('first', 'last');

-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "attributionModel" "AttributionModel" NOT NULL DEFAULT 'first';

-- AlterTable
ALTER TABLE "RewardHistory" ADD COLUMN     "grandfathered" BOOLEAN NOT NULL DEFAULT false;

-- Rewards granted before these rules may break them (a referee rewarded through several referrers,
-- or both directions of a pair). They stay as history, and every one but the earliest of its referee
-- and of its pair is marked grandfathered, outside the unique indexes below. The reward code counts
-- grandfathered rows too, so such a referee or pair gets no further reward either.
UPDATE "RewardHistory" h SET "grandfathered" = true
WHERE EXISTS (
    SELECT FROM "RewardHistory" e
    WHERE e."refereeId" = h."refereeId" AND (e."claimedAt", e."id") < (h."claimedAt", h."id")
  ) OR EXISTS (
    SELECT FROM "RewardHistory" e
    WHERE LEAST(e."referrerId", e."refereeId") = LEAST(h."referrerId", h."refereeId")
      AND GREATEST(e."referrerId", e."refereeId") = GREATEST(h."referrerId", h."refereeId")
      AND (e."claimedAt", e."id") < (h."claimedAt", h."id")
  );

-- One completed referral per referee (a referee is an app user, so this is per project). Partial:
-- Prisma cannot express it and ignores it when comparing the schema with the migrations.
CREATE UNIQUE INDEX "RewardHistory_refereeId_key" ON "RewardHistory" ("refereeId") WHERE NOT "grandfathered";

-- One reward per unordered pair of users: A referring B and B referring A cannot both pay, even when
-- both claims race. An expression index, likewise invisible to Prisma.
CREATE UNIQUE INDEX "RewardHistory_pair_key" ON "RewardHistory" (LEAST("referrerId", "refereeId"), GREATEST("referrerId", "refereeId")) WHERE NOT "grandfathered";
