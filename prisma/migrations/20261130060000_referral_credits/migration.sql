-- A reward no longer writes its referrer's counters row (issue 33). Its history row's trigger raised
-- "successfulReferrals" at commit, so the row's lock was held through the commit's WAL flush, and one
-- referrer's rewards (a viral referrer's) committed one flush after another. Instead the trigger
-- appends a credit, which locks nothing, and referloop_fold_credits adds the credits to the counters
-- and deletes them, in one statement, about once a second (the credit fold job) and before a read
-- that orders users by the count (leaderboard, top referrers, the user list). Every other read of the
-- count adds the user's credits not yet folded.
--
-- A revoked reward takes its credit back, or lowers the counter once its credit was folded. A
-- revocation (or an erasure) holds the credits' advisory lock shared and a fold holds it alone, so a
-- fold never meets a revocation halfway: each would otherwise lock a credit and a counters row the
-- other wants.
CREATE TABLE "ReferralCredit" (
    "rewardId" TEXT NOT NULL,
    "appUserId" TEXT NOT NULL,

    CONSTRAINT "ReferralCredit_pkey" PRIMARY KEY ("rewardId")
);

CREATE INDEX "ReferralCredit_appUserId_idx" ON "ReferralCredit"("appUserId");

-- The credits' advisory lock, shared: held by a transaction that takes credits back, to its end.
CREATE FUNCTION "referloop_share_credits"() RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock_shared(7436081230)
$$;

CREATE OR REPLACE FUNCTION "RewardHistory_credit_referrer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW."referrerId" IS NOT NULL THEN
      INSERT INTO "ReferralCredit" ("rewardId", "appUserId") VALUES (NEW."id", NEW."referrerId");
    END IF;
  ELSIF OLD."referrerId" IS NOT NULL THEN
    PERFORM "referloop_share_credits"();
    DELETE FROM "ReferralCredit" WHERE "rewardId" = OLD."id";
    IF NOT FOUND THEN
      UPDATE "AppUserCounters" SET "successfulReferrals" = "successfulReferrals" - 1 WHERE "appUserId" = OLD."referrerId" AND "successfulReferrals" > 0;
    END IF;
  END IF;
  RETURN NULL;
END $$;

-- Folds every credit into its user's counters row (a credit of a user erased since goes without
-- one) and answers how many it folded; with wait false, none (null) while another fold or a
-- revocation holds the lock.
CREATE FUNCTION "referloop_fold_credits"("wait" boolean) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  folded integer;
BEGIN
  IF "wait" THEN
    PERFORM pg_advisory_xact_lock(7436081230);
  ELSIF NOT pg_try_advisory_xact_lock(7436081230) THEN
    RETURN NULL;
  END IF;
  WITH taken AS (DELETE FROM "ReferralCredit" RETURNING "appUserId"),
  summed AS (SELECT "appUserId", count(*)::int AS "n" FROM taken GROUP BY "appUserId"),
  raised AS (
    UPDATE "AppUserCounters" c SET "successfulReferrals" = c."successfulReferrals" + s."n"
    FROM summed s WHERE c."appUserId" = s."appUserId"
  )
  SELECT COALESCE(sum("n"), 0) INTO folded FROM summed;
  RETURN folded;
END $$;
