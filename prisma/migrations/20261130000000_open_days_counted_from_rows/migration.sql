-- The reward and the arrival no longer write the overview's day roll-ups (issue 33). Each claim's
-- history row and Claimed event raised a roll-up row through a trigger, and each arrival its tracked
-- figure: an update of its own per row, about 7% of a reward (A/B, four rounds). Instead:
--
-- - Days from "openFrom" on are open: their tracked, completed and Claimed figures are counted from
--   the rows when read (a day's rows through the indexes that lead with the project and the time).
-- - Days before it are closed: their figures are in the roll-ups. referloop_close_days, run by the
--   periodic job, counts each day into them two hours after it ends and moves openFrom past it.
-- - Failed items and the other reward events (refusals) are rarer and stay trigger-kept on every day.
-- - A change to a row of a closed day (a delete, a correction, a row written with an earlier time)
--   still goes through the triggers, which adjust a closed day only. They take DayRollupState's row
--   FOR SHARE, and referloop_close_days takes it FOR UPDATE, so a change and a closing never miss each
--   other.
-- - An insert at the current time fires no trigger. Its day is still open when it commits, unless its
--   transaction ran for more than an hour: an insert skips the trigger only if its time is at most an
--   hour before its transaction began (clock-independent: the trigger's condition and the closing's
--   two hours both read the database's clock).

-- One row: the first open day.
CREATE TABLE "DayRollupState" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "openFrom" DATE NOT NULL,

    CONSTRAINT "DayRollupState_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "DayRollupState_one_row" CHECK ("id")
);

INSERT INTO "DayRollupState" ("id", "openFrom") VALUES (true, ((now() AT TIME ZONE 'UTC') - interval '2 hours')::date);

-- Open days' Claimed events counted by name (partial, in the migration only).
CREATE INDEX "RewardEvent_claimed_idx" ON "RewardEvent" ("projectId", "createdAt", "eventName") WHERE "outcome" = 'Claimed';

-- Adds to a project's day; a tracked or completed figure only when the day is closed (an open day's
-- is counted from the rows). A rise goes to this connection's row of the day (slot: concurrent
-- writers do not wait on one row lock until they commit). A fall goes to any row of the day, since
-- the day's figure is their sum; there is none when the project is being deleted with everything it
-- holds, and then nothing is to be done.
CREATE OR REPLACE FUNCTION "referloop_add_referral_day"(project TEXT, on_day DATE, add_tracked INTEGER, add_completed INTEGER, add_failed INTEGER) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  open_from DATE;
BEGIN
  IF add_tracked <> 0 OR add_completed <> 0 THEN
    SELECT "openFrom" INTO open_from FROM "DayRollupState" FOR SHARE;
    IF on_day >= open_from THEN
      add_tracked := 0;
      add_completed := 0;
    END IF;
  END IF;
  IF add_tracked = 0 AND add_completed = 0 AND add_failed = 0 THEN
    RETURN;
  END IF;
  IF add_tracked >= 0 AND add_completed >= 0 AND add_failed >= 0 THEN
    INSERT INTO "ReferralDay" AS r ("projectId", "day", "slot", "tracked", "completed", "failed")
    VALUES (project, on_day, pg_backend_pid() % 8, add_tracked, add_completed, add_failed)
    ON CONFLICT ("projectId", "day", "slot") DO UPDATE
      SET "tracked" = r."tracked" + EXCLUDED."tracked", "completed" = r."completed" + EXCLUDED."completed", "failed" = r."failed" + EXCLUDED."failed";
  ELSE
    UPDATE "ReferralDay" r SET "tracked" = r."tracked" + add_tracked, "completed" = r."completed" + add_completed, "failed" = r."failed" + add_failed
    WHERE (r."projectId", r."day", r."slot") = (SELECT d."projectId", d."day", d."slot" FROM "ReferralDay" d WHERE d."projectId" = project AND d."day" = on_day LIMIT 1);
  END IF;
END $$;

-- Likewise for reward events: a Claimed one only when its day is closed.
CREATE OR REPLACE FUNCTION "referloop_add_reward_event_day"(project TEXT, on_day DATE, event_name TEXT, event_outcome "RewardEventOutcome", event_reason TEXT, n INTEGER) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  open_from DATE;
BEGIN
  IF event_outcome = 'Claimed' THEN
    SELECT "openFrom" INTO open_from FROM "DayRollupState" FOR SHARE;
    IF on_day >= open_from THEN
      RETURN;
    END IF;
  END IF;
  IF n >= 0 THEN
    INSERT INTO "RewardEventDay" AS r ("projectId", "day", "eventName", "outcome", "reason", "slot", "count")
    VALUES (project, on_day, COALESCE(event_name, ''), event_outcome, COALESCE(event_reason, ''), pg_backend_pid() % 8, n)
    ON CONFLICT ("projectId", "day", "eventName", "outcome", "reason", "slot") DO UPDATE SET "count" = r."count" + EXCLUDED."count";
  ELSE
    UPDATE "RewardEventDay" r SET "count" = r."count" + n
    WHERE (r."projectId", r."day", r."eventName", r."outcome", r."reason", r."slot") = (
      SELECT d."projectId", d."day", d."eventName", d."outcome", d."reason", d."slot" FROM "RewardEventDay" d
      WHERE d."projectId" = project AND d."day" = on_day AND d."eventName" = COALESCE(event_name, '') AND d."outcome" = event_outcome
        AND d."reason" = COALESCE(event_reason, '')
      LIMIT 1);
  END IF;
END $$;

-- Inserts fire the count only when they bring what an open day's count leaves out: a Failed item, a
-- refusal, or a row whose time is more than an hour before its transaction began (the only rows that
-- can land in a closed day). The claim and the arrival fire none.
DROP TRIGGER "ReferralTracking_count_days" ON "ReferralTracking";
CREATE TRIGGER "ReferralTracking_count_days" AFTER DELETE ON "ReferralTracking"
  FOR EACH ROW EXECUTE FUNCTION "ReferralTracking_count_days"();
CREATE TRIGGER "ReferralTracking_count_days_insert" AFTER INSERT ON "ReferralTracking"
  FOR EACH ROW WHEN (NEW."status" = 'Failed' OR NEW."createdAt" < (now() AT TIME ZONE 'UTC') - interval '1 hour')
  EXECUTE FUNCTION "ReferralTracking_count_days"();

DROP TRIGGER "RewardHistory_count_days" ON "RewardHistory";
CREATE TRIGGER "RewardHistory_count_days" AFTER DELETE ON "RewardHistory"
  FOR EACH ROW EXECUTE FUNCTION "RewardHistory_count_days"();
CREATE TRIGGER "RewardHistory_count_days_insert" AFTER INSERT ON "RewardHistory"
  FOR EACH ROW WHEN (NEW."claimedAt" < (now() AT TIME ZONE 'UTC') - interval '1 hour')
  EXECUTE FUNCTION "RewardHistory_count_days"();

DROP TRIGGER "RewardEvent_count_days" ON "RewardEvent";
CREATE TRIGGER "RewardEvent_count_days" AFTER DELETE ON "RewardEvent"
  FOR EACH ROW EXECUTE FUNCTION "RewardEvent_count_days"();
CREATE TRIGGER "RewardEvent_count_days_insert" AFTER INSERT ON "RewardEvent"
  FOR EACH ROW WHEN (NEW."outcome" <> 'Claimed' OR NEW."createdAt" < (now() AT TIME ZONE 'UTC') - interval '1 hour')
  EXECUTE FUNCTION "RewardEvent_count_days"();

-- The open days' figures leave the roll-ups (they were trigger-kept until now).
UPDATE "ReferralDay" SET "tracked" = 0, "completed" = 0 WHERE "day" >= (SELECT "openFrom" FROM "DayRollupState");
DELETE FROM "RewardEventDay" WHERE "outcome" = 'Claimed' AND "day" >= (SELECT "openFrom" FROM "DayRollupState");

-- Closes the days before `before` (by default two hours ago, on the database's clock): counts each
-- project's open days up to it into the roll-ups and moves openFrom there. Answers the new openFrom.
-- A project's days are read through its own index ranges.
CREATE FUNCTION "referloop_close_days"(before DATE DEFAULT NULL) RETURNS DATE LANGUAGE plpgsql AS $$
DECLARE
  open_from DATE;
  close_to DATE := COALESCE(before, ((now() AT TIME ZONE 'UTC') - interval '2 hours')::date);
BEGIN
  -- Most runs find nothing due, and take no lock (openFrom only moves forward).
  SELECT "openFrom" INTO open_from FROM "DayRollupState";
  IF open_from >= close_to THEN
    RETURN open_from;
  END IF;
  SELECT "openFrom" INTO open_from FROM "DayRollupState" FOR UPDATE;
  IF open_from >= close_to THEN
    RETURN open_from;
  END IF;
  INSERT INTO "ReferralDay" AS r ("projectId", "day", "slot", "tracked", "completed", "failed")
  SELECT p."id", c."day", 0, sum(c."tracked"), sum(c."completed"), 0
  FROM "Project" p CROSS JOIN LATERAL (
    SELECT t."createdAt"::date AS "day", count(*) AS "tracked", 0 AS "completed" FROM "ReferralTracking" t
    WHERE t."projectId" = p."id" AND t."createdAt" >= open_from AND t."createdAt" < close_to GROUP BY 1
    UNION ALL
    SELECT h."claimedAt"::date, 0, count(*) FROM "RewardHistory" h
    WHERE h."projectId" = p."id" AND h."claimedAt" >= open_from AND h."claimedAt" < close_to GROUP BY 1
  ) c
  GROUP BY 1, 2
  ON CONFLICT ("projectId", "day", "slot") DO UPDATE SET "tracked" = r."tracked" + EXCLUDED."tracked", "completed" = r."completed" + EXCLUDED."completed";
  INSERT INTO "RewardEventDay" AS r ("projectId", "day", "eventName", "outcome", "reason", "slot", "count")
  SELECT p."id", e."day", e."eventName", 'Claimed', '', 0, e."count"
  FROM "Project" p CROSS JOIN LATERAL (
    SELECT "createdAt"::date AS "day", COALESCE("eventName", '') AS "eventName", count(*) AS "count" FROM "RewardEvent"
    WHERE "projectId" = p."id" AND "outcome" = 'Claimed' AND "createdAt" >= open_from AND "createdAt" < close_to GROUP BY 1, 2
  ) e
  ON CONFLICT ("projectId", "day", "eventName", "outcome", "reason", "slot") DO UPDATE SET "count" = r."count" + EXCLUDED."count";
  UPDATE "DayRollupState" SET "openFrom" = close_to;
  RETURN close_to;
END $$;

-- A project's roll-ups counted again from its rows (after a bulk load with triggers off:
-- session_replication_role = replica): every day's failed items and refusals, the closed days' tracked
-- items, rewards and Claimed events.
CREATE OR REPLACE FUNCTION "referloop_recount_days"(project TEXT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  open_from DATE;
BEGIN
  SELECT "openFrom" INTO open_from FROM "DayRollupState" FOR SHARE;
  DELETE FROM "ReferralDay" WHERE "projectId" = project;
  DELETE FROM "RewardEventDay" WHERE "projectId" = project;
  INSERT INTO "ReferralDay" ("projectId", "day", "slot", "tracked", "completed", "failed")
  SELECT project, "day", 0, sum("tracked"), sum("completed"), sum("failed") FROM (
    SELECT "createdAt"::date AS "day", count(*) AS "tracked", 0 AS "completed", 0 AS "failed" FROM "ReferralTracking"
    WHERE "projectId" = project AND "createdAt" < open_from GROUP BY 1
    UNION ALL
    SELECT "claimedAt"::date, 0, count(*), 0 FROM "RewardHistory" WHERE "projectId" = project AND "claimedAt" < open_from GROUP BY 1
    UNION ALL
    SELECT "updatedAt"::date, 0, 0, count(*) FROM "ReferralTracking" WHERE "projectId" = project AND "status" = 'Failed' GROUP BY 1
  ) AS counts
  GROUP BY "day";
  INSERT INTO "RewardEventDay" ("projectId", "day", "eventName", "outcome", "reason", "slot", "count")
  SELECT project, "createdAt"::date, COALESCE("eventName", ''), "outcome", COALESCE("reason", ''), 0, count(*)
  FROM "RewardEvent" WHERE "projectId" = project AND ("outcome" <> 'Claimed' OR "createdAt" < open_from) GROUP BY 2, 3, 4, 5;
END $$;
