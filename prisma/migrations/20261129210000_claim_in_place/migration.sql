-- A reward's claim (Pending -> Completed) writes its tracking item in place (issue 33). It changes
-- status, rewardClaimed, rewardClaimedAt and updatedAt; with status in two of the item's indexes,
-- PostgreSQL wrote a new version of the row on another page and a new entry in each of its six
-- indexes. With no index on any of these columns, and room left on the item's page (fillfactor), the
-- claim is a HOT update: the new version on the same page, no index entry.
--
-- What the status indexes answered:
-- - Failed and Revoked items, the support console's filters, by two partial indexes whose
--   predicates are columns a claim never writes: failureReason (set when an item fails) and revokedAt
--   (set when it is revoked). The CHECK constraints hold every Failed item to a reason and every
--   Revoked one to its time, so a filter on the status and the column finds every item of the status.
--   (One way only: an upgrade meets no row the code never wrote, and the filter's status does the rest.)
-- - Pending and Completed items, by the (projectId, createdAt) index with the status read from the
--   row: both are common, so a page reads a few rows more.
-- - A referrer's summary reads its statuses from the rows (a page of friends did already).
ALTER TABLE "ReferralTracking" ADD CONSTRAINT "ReferralTracking_failed_reason_check" CHECK ("status" <> 'Failed' OR "failureReason" IS NOT NULL);
ALTER TABLE "ReferralTracking" ADD CONSTRAINT "ReferralTracking_revoked_at_check" CHECK ("status" <> 'Revoked' OR "revokedAt" IS NOT NULL);

DROP INDEX "ReferralTracking_projectId_status_createdAt_idx";
DROP INDEX "ReferralTracking_referrer_summary_idx";
CREATE INDEX "ReferralTracking_referrer_summary_idx" ON "ReferralTracking"("referrerId", "createdAt", "id", "refereeId", "refereeErased");
-- Partial, in the migration only (Prisma cannot express them and ignores them when comparing).
CREATE INDEX "ReferralTracking_failed_idx" ON "ReferralTracking" ("projectId", "createdAt") WHERE "failureReason" IS NOT NULL;
CREATE INDEX "ReferralTracking_revoked_idx" ON "ReferralTracking" ("projectId", "createdAt") WHERE "revokedAt" IS NOT NULL;

-- Room for a claim's new version on its item's page: an item is written by its arrival and claimed
-- later, when its page is full. Applies to pages written from now on.
ALTER TABLE "ReferralTracking" SET (fillfactor = 85);

-- A delivery's result (Pending -> Succeeded) takes no entry in the status-first list index: almost
-- every delivery succeeds, so a Succeeded filter reads the (projectId, createdAt, id, status, ...)
-- index as well, from the index alone, and this one keeps the Pending and Failed ones.
DROP INDEX "Delivery_projectId_status_createdAt_id_webhookId_eventName_idx";
CREATE INDEX "Delivery_unsettled_idx" ON "Delivery" ("projectId", "status", "createdAt", "id", "webhookId", "eventName") WHERE "status" <> 'Succeeded';
