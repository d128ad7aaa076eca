import type { Db } from "@/server/db/client";
import { DEFAULT_MATCH_WINDOW_MINUTES, MAX_MATCH_WINDOW_MINUTES } from "@/lib/schemas/campaigns";

/** Rows deleted per statement, so a large backlog never holds long locks. */
const BATCH = 5_000;

/**
 * Deletes landing-page clicks older than their campaign's match window (24 hours at most): past it
 * no install can be matched to them, and their addresses and device details are not kept longer than
 * that use needs. Matched clicks go too. Safe to run anywhere, any time, concurrently. Returns the
 * number deleted.
 */
export async function purgeExpiredClicks(db: Db, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM "LinkClick" WHERE "id" IN (
        SELECT c."id" FROM "LinkClick" c LEFT JOIN "Campaign" k ON k."projectId" = c."projectId"
        WHERE c."createdAt" < CAST(${now} AS timestamp(3))
              - make_interval(mins => LEAST(COALESCE(k."matchWindowMinutes", ${DEFAULT_MATCH_WINDOW_MINUTES}), ${MAX_MATCH_WINDOW_MINUTES}))
        LIMIT ${BATCH})`;
    total += deleted;
    if (deleted < BATCH) return total;
  }
}
