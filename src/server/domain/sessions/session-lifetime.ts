/** A session ends after 30 days without use (the cookie's own lifetime, which next-auth also slides). */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** How stale `lastSeenAt` may get before a request writes it again: most requests write nothing. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

export const sessionExpiry = (now: Date) => new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000);
