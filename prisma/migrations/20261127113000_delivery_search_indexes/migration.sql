-- The support search's page and capped count, for every filter but the search term, from an index
-- alone (see schema.prisma): `id` after createdAt for the order's tie-break and the exports' keyset,
-- then the columns the other filters read.
-- DropIndex
DROP INDEX "Delivery_projectId_createdAt_idx";

-- DropIndex
DROP INDEX "Delivery_projectId_status_createdAt_idx";

-- CreateIndex
CREATE INDEX "Delivery_projectId_createdAt_id_status_webhookId_eventName_idx" ON "Delivery"("projectId", "createdAt", "id", "status", "webhookId", "eventName");

-- CreateIndex
CREATE INDEX "Delivery_projectId_status_createdAt_id_webhookId_eventName_idx" ON "Delivery"("projectId", "status", "createdAt", "id", "webhookId", "eventName");
