import type { Db } from "@/server/db/client";

/** The account's live sessions, most recently used first; `current` marks the caller's own. */
export async function listSessions(db: Db, userId: string, currentSessionId: string, now = new Date()) {
  const sessions = await db.session.findMany({ where: { userId, expiresAt: { gt: now } }, orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }] });
  return sessions.map((s) => ({
    id: s.id,
    userAgent: s.userAgent,
    ipAddress: s.ipAddress,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    current: s.id === currentSessionId,
  }));
}
