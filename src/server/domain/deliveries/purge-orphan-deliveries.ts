import type { Db } from "@/server/db/client";

/**
 * Deletes the deliveries whose webhook is gone, with their attempts. A delivery has no foreign key to
 * its webhook (migration 20261129220000_delivery_without_webhook_lock): deleteWebhook deletes what it
 * sees, but a claim that read the webhook before the deletion committed can still write a delivery for
 * it afterwards. The webhooks are walked through Delivery's (webhookId, trackingId, eventType) index,
 * one step per distinct webhook, so the purge costs what a project's webhooks number, not its
 * deliveries. Every part of the statement reads one snapshot, so a delivery of a webhook created since
 * is not seen. Returns how many deliveries were deleted.
 */
export async function purgeOrphanDeliveries(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<[{ deleted: number }]>`
    WITH RECURSIVE hooks AS (
      (SELECT "webhookId" AS "id" FROM "Delivery" ORDER BY "webhookId" LIMIT 1)
      UNION ALL
      SELECT (SELECT d."webhookId" FROM "Delivery" d WHERE d."webhookId" > h."id" ORDER BY d."webhookId" LIMIT 1)
      FROM hooks h WHERE h."id" IS NOT NULL
    ), deleted AS (
      DELETE FROM "Delivery" d
      WHERE d."webhookId" IN (SELECT h."id" FROM hooks h WHERE h."id" IS NOT NULL AND NOT EXISTS (SELECT FROM "Webhook" w WHERE w."id" = h."id"))
      RETURNING 1
    )
    SELECT count(*)::int AS "deleted" FROM deleted`;
  return row.deleted;
}
