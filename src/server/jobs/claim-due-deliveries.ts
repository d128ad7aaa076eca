import type { Db } from "@/server/db/client";

/**
 * Leases up to `limit` due Pending deliveries to `workerId` in one statement. SKIP LOCKED lets
 * several workers on one PostgreSQL claim disjoint rows without waiting on each other; the lease
 * keeps a row away from other workers after the statement commits, until it passes (a dead worker's
 * rows are then taken over). Times come from this process's clock, like the nextAttemptAt it wrote.
 */
export async function claimDueDeliveries(
  db: Db,
  input: { workerId: string; limit: number; leaseMs: number; dueBefore: Date },
): Promise<string[]> {
  const now = new Date();
  const leasedUntil = new Date(now.getTime() + input.leaseMs);
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE "Delivery" SET "leasedUntil" = ${leasedUntil}, "leasedBy" = ${input.workerId}, "updatedAt" = ${now}
    WHERE "id" IN (
      SELECT "id" FROM "Delivery"
      WHERE "status" = 'Pending' AND "nextAttemptAt" <= ${input.dueBefore}
        AND ("leasedUntil" IS NULL OR "leasedUntil" < ${now})
      ORDER BY "nextAttemptAt"
      LIMIT ${input.limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING "id"`;
  return rows.map((r) => r.id);
}
