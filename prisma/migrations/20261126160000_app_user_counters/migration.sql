-- An app user's two referral counters move to a narrow table of their own. Both are sorted on, so
-- raising one on AppUser could never be a HOT update: every reward (successfulReferrals) and every
-- arrival (totalReferralsGiven) wrote a new version of the whole user row with an entry in each of
-- its eleven indexes, the trigram index included. Here the same update writes a narrow row and
-- three index entries (bench/README.md).
CREATE TABLE "AppUserCounters" (
    "appUserId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "totalReferralsGiven" INTEGER NOT NULL DEFAULT 0,
    "successfulReferrals" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "AppUserCounters_pkey" PRIMARY KEY ("appUserId")
);

INSERT INTO "AppUserCounters" ("appUserId", "projectId", "totalReferralsGiven", "successfulReferrals")
SELECT "id", "projectId", "totalReferralsGiven", "successfulReferrals" FROM "AppUser";

CREATE INDEX "AppUserCounters_projectId_successfulReferrals_appUserId_idx" ON "AppUserCounters"("projectId", "successfulReferrals", "appUserId");

CREATE INDEX "AppUserCounters_projectId_totalReferralsGiven_appUserId_idx" ON "AppUserCounters"("projectId", "totalReferralsGiven", "appUserId");

ALTER TABLE "AppUserCounters" ADD CONSTRAINT "AppUserCounters_appUserId_fkey" FOREIGN KEY ("appUserId") REFERENCES "AppUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every app user has its counters row from the moment it exists, whichever statement creates it (the
-- reads join it, and a list sorted by a counter walks its index: a user without a row would vanish
-- from both). Prisma cannot declare a trigger and does not compare it.
CREATE FUNCTION "AppUser_create_counters"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "AppUserCounters" ("appUserId", "projectId") VALUES (NEW."id", NEW."projectId");
  RETURN NULL;
END
$$;

CREATE TRIGGER "AppUser_create_counters" AFTER INSERT ON "AppUser"
  FOR EACH ROW EXECUTE FUNCTION "AppUser_create_counters"();

DROP INDEX "AppUser_projectId_successfulReferrals_id_idx";

DROP INDEX "AppUser_projectId_totalReferralsGiven_id_idx";

ALTER TABLE "AppUser" DROP COLUMN "successfulReferrals",
DROP COLUMN "totalReferralsGiven";
