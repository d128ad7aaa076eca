-- The reward path's rows lose the foreign keys that another key already implies (issue 33). Each
-- check locks its parent row FOR KEY SHARE: the project and the webhook at every reward, and the
-- referrer's user row at every claim of theirs. Under concurrent claims each such lock makes a new
-- MultiXact and writes the parent's tuple again in WAL (about seven locked rows per reward, and a
-- full-page image whenever that page was not yet written since the checkpoint).
-- What goes with what stays as before:
--   RewardHistory.projectId: the entry goes with its tracking item (trackingId), which goes with its project;
--   RewardHistory.referrerId, refereeId: eraseAppUser nulls them (the only delete of a user);
--   Delivery.projectId: the delivery goes with its webhook (webhookId), which goes with its project;
--   DeliveryAttempt.projectId, webhookId: the attempt goes with its delivery (deliveryId);
--   Activity.appUserId: eraseAppUser deletes the user's entries; a project takes them with it (projectId).
ALTER TABLE "RewardHistory" DROP CONSTRAINT "RewardHistory_projectId_fkey";
ALTER TABLE "RewardHistory" DROP CONSTRAINT "RewardHistory_referrerId_fkey";
ALTER TABLE "RewardHistory" DROP CONSTRAINT "RewardHistory_refereeId_fkey";
ALTER TABLE "Delivery" DROP CONSTRAINT "Delivery_projectId_fkey";
ALTER TABLE "DeliveryAttempt" DROP CONSTRAINT "DeliveryAttempt_projectId_fkey";
ALTER TABLE "DeliveryAttempt" DROP CONSTRAINT "DeliveryAttempt_webhookId_fkey";
ALTER TABLE "Activity" DROP CONSTRAINT "Activity_appUserId_fkey";
