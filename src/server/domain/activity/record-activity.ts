import { Prisma } from "@/generated/prisma/client";
import type { ActivityType } from "@/lib/schemas/activity";

export type ActivityInput = {
  projectId: string;
  /** The app user the entry belongs to on their timeline (for referral events: the referrer). */
  appUserId: string | null;
  /** The tracking item an entry of a referral is about: the feed's search by tracking id or referee. */
  trackingId?: string | null;
  type: ActivityType;
  description: string;
};

/** An entry written inside a larger statement may take its user and words from the statement's own rows. */
export type ActivityInsert = Omit<ActivityInput, "appUserId" | "description"> & {
  appUserId: string | null | Prisma.Sql;
  description: string | Prisma.Sql;
};

/**
 * The one INSERT of an activity entry, also used inside the reward claim's single statement, where
 * `onlyIf` gates it on the claim. Fills in what Prisma otherwise would: the id, and `at` from this
 * process's clock.
 */
export function activityInsert(entry: ActivityInsert, { at = new Date(), onlyIf = Prisma.sql`true` } = {}): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO "Activity" ("id", "projectId", "appUserId", "trackingId", "type", "description", "createdAt")
    SELECT gen_random_uuid()::text, ${entry.projectId}, ${entry.appUserId}, ${entry.trackingId ?? null}, ${entry.type}, ${entry.description}, ${at}
    WHERE ${onlyIf}`;
}

/** Written inside the caller's transaction, so the feed never shows something that was rolled back. */
export async function recordActivity(tx: Prisma.TransactionClient, entry: ActivityInput) {
  await tx.$executeRaw(activityInsert(entry));
}
