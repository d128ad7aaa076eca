import type { Db } from "@/server/db/client";

export type ClaimedDelivery = { id: string; webhookId: string };

/**
 * Leases up to `limit` due Pending deliveries to `workerId` in one statement. SKIP LOCKED lets
 * several workers on one PostgreSQL claim disjoint rows without waiting on each other; the lease
 * keeps a row away from other workers after the statement commits, until it passes (a dead worker's
 * rows are then taken over). Times come from this process's clock, like the nextAttemptAt it wrote.
 *
 * Fair between webhooks: no webhook gets more than `perWebhook` attempts in flight in this worker
 * (`inFlight` counts what it already has), and webhooks at that cap are not even looked at, so one
 * slow receiver with a long queue cannot take every slot (or every candidate) from the others.
 */
export async function claimDueDeliveries(
  db: Db,
  input: { workerId: string; limit: number; leaseMs: number; dueBefore: Date; perWebhook: number; inFlight: ReadonlyMap<string, number> },
): Promise<ClaimedDelivery[]> {
  const now = new Date();
  const leasedUntil = new Date(now.getTime() + input.leaseMs);
  const busy = [...input.inFlight].filter(([, n]) => n > 0);
  const saturated = busy.filter(([, n]) => n >= input.perWebhook).map(([id]) => id);
  return db.$queryRaw<ClaimedDelivery[]>`
    WITH candidates AS (
      SELECT "id", "webhookId", "nextAttemptAt" FROM "Delivery"
      WHERE "status" = 'Pending' AND "nextAttemptAt" <= ${input.dueBefore}
        AND ("leasedUntil" IS NULL OR "leasedUntil" < ${now})
        AND NOT ("webhookId" = ANY(${saturated}::text[]))
      ORDER BY "nextAttemptAt"
      LIMIT ${input.limit * 4}
      FOR UPDATE SKIP LOCKED
    ), ranked AS (
      SELECT c."id", c."nextAttemptAt",
        ROW_NUMBER() OVER (PARTITION BY c."webhookId" ORDER BY c."nextAttemptAt") + COALESCE(b."n", 0) AS "slot"
      FROM candidates c
      LEFT JOIN unnest(${busy.map(([id]) => id)}::text[], ${busy.map(([, n]) => n)}::int[]) AS b("webhookId", "n")
        ON b."webhookId" = c."webhookId"
    ), picked AS (
      SELECT "id" FROM ranked WHERE "slot" <= ${input.perWebhook} ORDER BY "nextAttemptAt" LIMIT ${input.limit}
    )
    UPDATE "Delivery" d SET "leasedUntil" = ${leasedUntil}, "leasedBy" = ${input.workerId}, "updatedAt" = ${now}
    FROM picked WHERE d."id" = picked."id"
    RETURNING d."id", d."webhookId"`;
}
