import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { planned } from "@/server/db/prepared-statements";

/**
 * The first day the roll-ups do not hold (DayRollupState), as a timestamp: from it on, a day's tracked
 * items, rewards and Claimed events are counted from the rows, so that a reward or an arrival writes
 * no roll-up (migration 20261130000000_open_days_counted_from_rows). A reader adds the rows from here
 * to the roll-ups in one statement, whose snapshot sees a closing either whole or not at all.
 */
export const OPEN_FROM = Prisma.sql`(SELECT "openFrom"::timestamp FROM "DayRollupState")`;

/**
 * Closes the days that ended more than two hours ago (on the database's clock): their tracked items,
 * rewards and Claimed events counted into the roll-ups, each project through its own index ranges.
 * Run by the periodic job; two at once wait on each other and close each day once. `before` (a test's
 * clock) closes the days before it instead: a row then written at the current time into a day it
 * closed skips the triggers and is left out of that day's roll-up. Answers the first open day.
 */
export async function closeDays(db: Db, before?: string): Promise<string> {
  const [row] = await planned<{ openFrom: string }>(db)`
    SELECT to_char("referloop_close_days"(CAST(${before ?? null} AS date)), 'YYYY-MM-DD') AS "openFrom"`;
  return row!.openFrom;
}
