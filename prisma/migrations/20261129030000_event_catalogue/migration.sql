-- The event catalogue: a webhook's subscriptions (existing webhooks keep the one event they had), and
-- each delivery's type (a test event's is `referloop.test`; every other existing delivery is a reward).
ALTER TABLE "Webhook" ADD COLUMN "events" TEXT[] DEFAULT ARRAY['reward.granted']::TEXT[];

ALTER TABLE "Delivery" ADD COLUMN "eventType" TEXT NOT NULL DEFAULT 'reward.granted';
UPDATE "Delivery" SET "eventType" = 'referloop.test' WHERE "trackingId" IS NULL;

-- One delivery per webhook, tracking item and event type (a reward's grant and its revocation).
CREATE UNIQUE INDEX "Delivery_webhookId_trackingId_eventType_key" ON "Delivery"("webhookId", "trackingId", "eventType");
DROP INDEX "Delivery_webhookId_trackingId_key";
