export type ActivityDto = {
  id: string;
  type: string;
  description: string;
  /** The app user's uniqueId, or null for project-level entries. */
  appUserId: string | null;
  createdAt: string;
};

export const toActivityDto = (a: {
  id: string;
  type: string;
  description: string;
  appUserId: string | null;
  createdAt: Date;
}): ActivityDto => ({
  id: a.id,
  type: a.type,
  description: a.description,
  appUserId: a.appUserId,
  createdAt: a.createdAt.toISOString(),
});
