import type { Prisma } from "@/generated/prisma/client";

export const ACTIVITY_TYPES = [
  "user_created",
  "referral_tracked",
  "reward_claimed",
  "reward_rejected",
  "event_recorded",
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export type ActivityInput = {
  projectId: string;
  /** The app user the entry belongs to on their timeline (for referral events: the referrer). */
  appUserId: string | null;
  type: ActivityType;
  description: string;
};

/** Written inside the caller's transaction, so the feed never shows something that was rolled back. */
export async function recordActivity(tx: Prisma.TransactionClient, entries: ActivityInput | ActivityInput[]) {
  await tx.activity.createMany({ data: Array.isArray(entries) ? entries : [entries] });
}
