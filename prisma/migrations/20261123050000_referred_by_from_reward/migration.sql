-- An app user's referredBy is read from its reward as referee (RewardHistory's refereeId, unique but
-- for grandfathered rewards: the first one), no longer stored on the user. Storing it made every
-- claim update the referee's row, and since the column was indexed (the foreign key's index) that
-- update could not be HOT: one new entry in each of AppUser's indexes per reward.
ALTER TABLE "AppUser" DROP CONSTRAINT "AppUser_referredById_fkey";

DROP INDEX "AppUser_referredById_idx";

ALTER TABLE "AppUser" DROP COLUMN "referredById";
