-- The referrer's successfulReferrals follows their RewardHistory rows, raised and lowered at commit
-- (issue 33). A claim used to raise it in its own statement and hold the referrer's counters row from
-- there through the statement's foreign-key checks, day roll-ups and commit, so a referrer receiving
-- many rewards at once had them wait on each other for all of that. Deferred, the row is written last,
-- held only for its update and the commit. A claim that must know the new count (a campaign with
-- milestones) locks the row in its statement and reads it plus one, which this trigger then writes.
CREATE FUNCTION "RewardHistory_credit_referrer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "AppUserCounters" SET "successfulReferrals" = "successfulReferrals" + 1 WHERE "appUserId" = NEW."referrerId";
  ELSE
    UPDATE "AppUserCounters" SET "successfulReferrals" = "successfulReferrals" - 1 WHERE "appUserId" = OLD."referrerId" AND "successfulReferrals" > 0;
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER "RewardHistory_credit_referrer" AFTER INSERT OR DELETE ON "RewardHistory"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "RewardHistory_credit_referrer"();
