-- A delivery loses its foreign key to its webhook (issue 33): the check locked the webhook's row FOR
-- KEY SHARE at every reward, so concurrent claims routed to one webhook made a new MultiXact on that
-- row and wrote it again in WAL each time (without it the reward ran about 6% faster: A/B, four
-- rounds). What went by cascade is done by the code:
--   deleteWebhook deletes the webhook's deliveries (their attempts go with them, by their key);
--   deleteProject deletes the project's deliveries;
--   a claim that read the webhook before its deletion committed can still write a delivery for it
--   after: the purge job deletes deliveries whose webhook is gone (purgeOrphanDeliveries).
ALTER TABLE "Delivery" DROP CONSTRAINT "Delivery_webhookId_fkey";
