import type { Db } from "@/server/db/client";

const DAY_MS = 24 * 60 * 60_000;
/** Deliveries purged per statement: short transactions, so a long backlog never holds many locks at once. */
const PURGE_BATCH = 1_000;

/**
 * The end of a finished delivery's retention (WEBHOOK_BODY_RETENTION_DAYS after its latest attempt):
 * its body (the payload every attempt's request was made of) and its attempts' response excerpts are
 * removed; the delivery, its attempts and their statuses stay, marked `bodiesPurgedAt`. A Pending
 * delivery is never purged, so nothing that may still be sent loses its body. The partial index
 * "Delivery_bodies_kept_idx" (in the migration) lists exactly the candidates. Returns how many
 * deliveries were purged.
 */
export async function purgeDeliveryBodies(db: Db, now: Date, retentionDays: number): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  let total = 0;
  for (;;) {
    const [row] = await db.$queryRaw<[{ purged: number }]>`
      WITH purged AS (
        UPDATE "Delivery" d SET "payload" = NULL, "bodiesPurgedAt" = ${now}
        WHERE d."id" IN (
          SELECT "id" FROM "Delivery"
          WHERE "status" <> 'Pending' AND "bodiesPurgedAt" IS NULL AND "lastAttemptAt" < ${cutoff}
          LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED)
          AND d."status" <> 'Pending'
        RETURNING d."id"
      ), cleared AS (
        UPDATE "DeliveryAttempt" a SET "responseExcerpt" = NULL FROM purged WHERE a."deliveryId" = purged."id" AND a."responseExcerpt" IS NOT NULL
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM purged)::int AS "purged", (SELECT count(*) FROM cleared)::int AS "cleared"`;
    total += row.purged;
    if (row.purged < PURGE_BATCH) return total;
  }
}
