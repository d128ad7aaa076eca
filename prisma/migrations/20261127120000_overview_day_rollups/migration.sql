-- The overview's figures per project and UTC day, kept by triggers in the transaction of every write
-- that changes them, whatever code path writes (see ReferralDay in schema.prisma). A range of days
-- then reads a few rows per day, not an index entry per item: at 2,000,000 items over a year, the
-- index-only scans took 0.2 to 0.6 s per query.

-- CreateTable
CREATE TABLE "ReferralDay" (
    "projectId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "slot" SMALLINT NOT NULL,
    "tracked" INTEGER NOT NULL DEFAULT 0,
    "completed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ReferralDay_pkey" PRIMARY KEY ("projectId","day","slot")
);

-- CreateTable
CREATE TABLE "RewardEventDay" (
    "projectId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "eventName" TEXT NOT NULL,
    "outcome" "RewardEventOutcome" NOT NULL,
    "reason" TEXT NOT NULL,
    "slot" SMALLINT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RewardEventDay_pkey" PRIMARY KEY ("projectId","day","eventName","outcome","reason","slot")
);

-- The overview reads the roll-ups instead.
-- DropIndex
DROP INDEX "RewardEvent_projectId_createdAt_outcome_eventName_reason_idx";
DROP INDEX "ReferralTracking_failed_idx";

-- AddForeignKey
ALTER TABLE "ReferralDay" ADD CONSTRAINT "ReferralDay_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RewardEventDay" ADD CONSTRAINT "RewardEventDay_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Test deliveries (no tracking item) by status and creation, so that the overview's delivery counts
-- (every delivery but the tests) are two index-only scans. Partial, in the migration only.
CREATE INDEX "Delivery_test_idx" ON "Delivery" ("projectId", "status", "createdAt") WHERE "trackingId" IS NULL;

-- Adds to a project's day. A rise goes to this connection's row of the day (slot: concurrent writers
-- do not wait on one row lock until they commit). A fall (a row deleted, or moved to another day)
-- goes to any row of the day, since the day's figure is their sum; there is none when the project is
-- being deleted with everything it holds, and then nothing is to be done.
CREATE FUNCTION "referloop_add_referral_day"(project TEXT, on_day DATE, add_tracked INTEGER, add_completed INTEGER, add_failed INTEGER) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
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

CREATE FUNCTION "referloop_add_reward_event_day"(project TEXT, on_day DATE, event_name TEXT, event_outcome "RewardEventOutcome", event_reason TEXT, n INTEGER) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
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

-- A tracking item counts as tracked on the UTC day it was created, and as failed on the day it
-- failed (a Failed item is final: its updatedAt), as the overview has counted them from the start.
CREATE FUNCTION "ReferralTracking_count_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    IF TG_OP = 'DELETE' OR OLD."projectId" <> NEW."projectId" OR OLD."createdAt"::date <> NEW."createdAt"::date THEN
      PERFORM "referloop_add_referral_day"(OLD."projectId", OLD."createdAt"::date, -1, 0, 0);
    END IF;
    IF OLD."status" = 'Failed' AND (TG_OP = 'DELETE' OR NEW."status" <> 'Failed' OR OLD."projectId" <> NEW."projectId" OR OLD."updatedAt"::date <> NEW."updatedAt"::date) THEN
      PERFORM "referloop_add_referral_day"(OLD."projectId", OLD."updatedAt"::date, 0, 0, -1);
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    IF TG_OP = 'INSERT' OR OLD."projectId" <> NEW."projectId" OR OLD."createdAt"::date <> NEW."createdAt"::date THEN
      PERFORM "referloop_add_referral_day"(NEW."projectId", NEW."createdAt"::date, 1, 0, 0);
    END IF;
    IF NEW."status" = 'Failed' AND (TG_OP = 'INSERT' OR OLD."status" <> 'Failed' OR OLD."projectId" <> NEW."projectId" OR OLD."updatedAt"::date <> NEW."updatedAt"::date) THEN
      PERFORM "referloop_add_referral_day"(NEW."projectId", NEW."updatedAt"::date, 0, 0, 1);
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "ReferralTracking_count_days" AFTER INSERT OR DELETE ON "ReferralTracking"
  FOR EACH ROW EXECUTE FUNCTION "ReferralTracking_count_days"();
-- Most updates (a claim: Pending to Completed) change no figure and skip the function.
CREATE TRIGGER "ReferralTracking_count_days_update" AFTER UPDATE ON "ReferralTracking"
  FOR EACH ROW WHEN (
    OLD."projectId" <> NEW."projectId" OR OLD."createdAt"::date <> NEW."createdAt"::date
    OR ((OLD."status" = 'Failed' OR NEW."status" = 'Failed') AND (OLD."status" <> NEW."status" OR OLD."updatedAt"::date <> NEW."updatedAt"::date)))
  EXECUTE FUNCTION "ReferralTracking_count_days"();

-- A reward counts as completed on the UTC day it was claimed.
CREATE FUNCTION "RewardHistory_count_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "referloop_add_referral_day"(OLD."projectId", OLD."claimedAt"::date, 0, -1, 0);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM "referloop_add_referral_day"(NEW."projectId", NEW."claimedAt"::date, 0, 1, 0);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "RewardHistory_count_days" AFTER INSERT OR DELETE ON "RewardHistory"
  FOR EACH ROW EXECUTE FUNCTION "RewardHistory_count_days"();
CREATE TRIGGER "RewardHistory_count_days_update" AFTER UPDATE ON "RewardHistory"
  FOR EACH ROW WHEN (OLD."projectId" <> NEW."projectId" OR OLD."claimedAt"::date <> NEW."claimedAt"::date)
  EXECUTE FUNCTION "RewardHistory_count_days"();

CREATE FUNCTION "RewardEvent_count_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "referloop_add_reward_event_day"(OLD."projectId", OLD."createdAt"::date, OLD."eventName", OLD."outcome", OLD."reason", -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM "referloop_add_reward_event_day"(NEW."projectId", NEW."createdAt"::date, NEW."eventName", NEW."outcome", NEW."reason", 1);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "RewardEvent_count_days" AFTER INSERT OR DELETE ON "RewardEvent"
  FOR EACH ROW EXECUTE FUNCTION "RewardEvent_count_days"();
CREATE TRIGGER "RewardEvent_count_days_update" AFTER UPDATE ON "RewardEvent"
  FOR EACH ROW WHEN (
    OLD."projectId" <> NEW."projectId" OR OLD."createdAt"::date <> NEW."createdAt"::date OR OLD."outcome" <> NEW."outcome"
    OR OLD."eventName" IS DISTINCT FROM NEW."eventName" OR OLD."reason" IS DISTINCT FROM NEW."reason")
  EXECUTE FUNCTION "RewardEvent_count_days"();

-- A project's roll-ups counted again from its rows: for what is already there, and for rows written
-- with triggers off (a bulk load with session_replication_role = replica).
CREATE FUNCTION "referloop_recount_days"(project TEXT) RETURNS void LANGUAGE sql AS $$
  DELETE FROM "ReferralDay" WHERE "projectId" = project;
  DELETE FROM "RewardEventDay" WHERE "projectId" = project;
  INSERT INTO "ReferralDay" ("projectId", "day", "slot", "tracked", "completed", "failed")
  SELECT project, "day", 0, sum("tracked"), sum("completed"), sum("failed") FROM (
    SELECT "createdAt"::date AS "day", count(*) AS "tracked", 0 AS "completed", 0 AS "failed" FROM "ReferralTracking" WHERE "projectId" = project GROUP BY 1
    UNION ALL
    SELECT "claimedAt"::date, 0, count(*), 0 FROM "RewardHistory" WHERE "projectId" = project GROUP BY 1
    UNION ALL
    SELECT "updatedAt"::date, 0, 0, count(*) FROM "ReferralTracking" WHERE "projectId" = project AND "status" = 'Failed' GROUP BY 1
  ) AS counts
  GROUP BY "day";
  INSERT INTO "RewardEventDay" ("projectId", "day", "eventName", "outcome", "reason", "slot", "count")
  SELECT project, "createdAt"::date, COALESCE("eventName", ''), "outcome", COALESCE("reason", ''), 0, count(*)
  FROM "RewardEvent" WHERE "projectId" = project GROUP BY 2, 3, 4, 5;
$$;

SELECT "referloop_recount_days"("id") FROM "Project";
