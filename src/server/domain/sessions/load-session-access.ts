import type { MemberRole } from "@/generated/prisma/enums";
import type { Db } from "@/server/db/client";
import { SESSION_MAX_AGE_SECONDS, SESSION_TOUCH_INTERVAL_MS } from "./session-lifetime";
import { prepared } from "@/server/db/prepared-statements";

export type SessionAccess = {
  email: string;
  emailVerified: boolean;
  /** Oldest first: the first is the default active organisation. */
  memberships: { organizationId: string; role: MemberRole }[];
};

type Row = { email: string; emailVerifiedAt: Date | null; organizationId: string | null; role: MemberRole | null };

/**
 * What a signed-in request may do, in one statement (one round trip, as loading the memberships alone
 * took before): the session must exist, belong to the user and not have expired, and the user's
 * memberships come with it. A revoked session, or a deleted account (its sessions go with it), is null.
 * `lastSeenAt` (and the sliding expiry) is written at most once a minute, by the same statement.
 */
export async function loadSessionAccess(db: Db, userId: string, sessionId: string, now = new Date()): Promise<SessionAccess | null> {
  const staleBefore = new Date(now.getTime() - SESSION_TOUCH_INTERVAL_MS);
  const expiresAt = new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000);
  const rows = await prepared<Row>(db)`
    WITH touched AS (
      UPDATE "Session" SET "lastSeenAt" = ${now}, "expiresAt" = ${expiresAt}
      WHERE "id" = ${sessionId} AND "userId" = ${userId} AND "expiresAt" > ${now} AND "lastSeenAt" < ${staleBefore}
      RETURNING "id"
    )
    SELECT u."email", u."emailVerifiedAt", m."organizationId", m."role"::text AS "role"
    FROM "Session" s
    JOIN "User" u ON u."id" = s."userId"
    LEFT JOIN "Membership" m ON m."userId" = s."userId"
    WHERE s."id" = ${sessionId} AND s."userId" = ${userId} AND s."expiresAt" > ${now}
    ORDER BY m."createdAt" ASC, m."id" ASC`;
  const first = rows[0];
  if (!first) return null;
  return {
    email: first.email,
    emailVerified: first.emailVerifiedAt !== null,
    memberships: rows.filter((r) => r.organizationId && r.role).map((r) => ({ organizationId: r.organizationId!, role: r.role! })),
  };
}
