// The list orders, with no server imports: the dashboard shares them.

/** SortBy values (matched case-insensitively); each is backed by an index on (projectId, field). */
export const APP_USER_SORT_FIELDS = [
  "createdAt",
  "firstSeenAt",
  "lastSeenAt",
  "clientProvidedId",
  "successfulReferrals",
  "totalReferralsGiven",
] as const;
export type AppUserSortField = (typeof APP_USER_SORT_FIELDS)[number];
export const SORT_ORDERS = ["asc", "desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const DEFAULT_APP_USER_SORT: { sortBy: AppUserSortField; sortOrder: SortOrder } = {
  sortBy: "createdAt",
  sortOrder: "desc",
};
