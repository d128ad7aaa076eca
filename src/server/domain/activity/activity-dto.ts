export type ActivityDto = {
  id: string;
  type: string;
  description: string;
  /** The app user's uniqueId, or null for project-level entries. */
  appUserId: string | null;
  /** The tracking item of a referral's entry; null for others. */
  trackingId: string | null;
  createdAt: string;
};

export const toActivityDto = (a: {
  id: string;
  type: string;
  description: string;
  appUserId: string | null;
  trackingId: string | null;
  createdAt: Date;
}): ActivityDto => ({
  id: a.id,
  type: a.type,
  description: a.description,
  appUserId: a.appUserId,
  trackingId: a.trackingId,
  createdAt: a.createdAt.toISOString(),
});
