import type { RewardEnvironment } from "@/generated/prisma/client";
import type { ReviewReason } from "@/lib/schemas/reward-rules";
import type { Db } from "@/server/db/client";
import { pageWindow, toPage, type PageEnvelope, type PagingInput } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

/** Where the referee's client was seen from (the same-device rule's sightings), and whether the referrer's was too. */
export type ReviewSignal = { kind: "ip" | "device"; value: string; lastSeenAt: string; sharedWithReferrer: boolean };
/** The referrer's record in the project: referrals tracked, rewards claimed, rewards denied in review before. */
export type ReferrerHistory = { referrals: number; rewards: number; denials: number };

export type ReviewDto = {
  trackingId: string;
  referrerId: string | null;
  referrerUniqueId: string | null;
  refereeId: string | null;
  refereeUniqueId: string | null;
  /** The referee's `email` attribute, when a string. */
  refereeEmail: string | null;
  /** The referee's latest sightings (at most SIGNALS_PER_REVIEW), newest first. */
  refereeSignals: ReviewSignal[];
  /** Null once the referrer was erased. */
  referrerHistory: ReferrerHistory | null;
  /** The event the reward completes with. */
  event: string;
  environment: RewardEnvironment | null;
  /** Why it is held. */
  reasons: ReviewReason[];
  /** When the hold ends and the reward completes by itself; null when a person must decide. */
  holdUntil: string | null;
  heldAt: string;
};

export const SIGNALS_PER_REVIEW = 5;

/**
 * The project's review queue, oldest first (the order in which they should be decided), optionally
 * only the items held for one reason; each with what a reviewer decides on: the referee's e-mail
 * and where their client was seen (marked where the referrer's was seen too), and the referrer's
 * history. Two grouped reads for the page's users, whatever the page's size.
 */
export async function listReviews(
  db: Db,
  organizationId: string,
  projectId: string,
  { reason, ...paging }: PagingInput & { reason?: ReviewReason },
): Promise<PageEnvelope<ReviewDto>> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const window = pageWindow(paging);
  const where = { projectId: project.id, ...(reason ? { reasons: { has: reason } } : {}) };
  const [rows, totalCount] = await Promise.all([
    db.rewardReview.findMany({
      where,
      orderBy: [{ createdAt: "asc" }, { trackingId: "asc" }],
      skip: window.skip,
      take: window.pageSize,
      include: {
        tracking: {
          select: { referrerId: true, refereeId: true, referrer: { select: { clientProvidedId: true } }, referee: { select: { clientProvidedId: true, attributes: true } } },
        },
      },
    }),
    db.rewardReview.count({ where }),
  ]);
  const pairs = rows.flatMap((r) => (r.tracking.refereeId ? [[r.tracking.refereeId, r.tracking.referrerId ?? ""] as const] : []));
  const referrerIds = [...new Set(rows.flatMap((r) => (r.tracking.referrerId ? [r.tracking.referrerId] : [])))];
  const [signals, histories] = await Promise.all([refereeSignals(db, pairs), referrerHistories(db, referrerIds)]);
  return toPage(
    rows.map((r) => {
      const email = (r.tracking.referee?.attributes as Record<string, unknown> | undefined)?.email;
      return {
        trackingId: r.trackingId,
        referrerId: r.tracking.referrer?.clientProvidedId ?? null,
        referrerUniqueId: r.tracking.referrerId,
        refereeId: r.tracking.referee?.clientProvidedId ?? null,
        refereeUniqueId: r.tracking.refereeId,
        refereeEmail: typeof email === "string" ? email : null,
        refereeSignals: (r.tracking.refereeId && signals.get(r.tracking.refereeId)) || [],
        referrerHistory: (r.tracking.referrerId && histories.get(r.tracking.referrerId)) || null,
        event: r.eventName,
        environment: r.environment,
        reasons: r.reasons as ReviewReason[],
        holdUntil: r.holdUntil?.toISOString() ?? null,
        heldAt: r.createdAt.toISOString(),
      };
    }),
    window,
    totalCount,
  );
}

async function refereeSignals(db: Db, pairs: (readonly [string, string])[]): Promise<Map<string, ReviewSignal[]>> {
  const byReferee = new Map<string, ReviewSignal[]>();
  if (pairs.length === 0) return byReferee;
  const rows = await db.$queryRaw<{ refereeId: string; kind: "ip" | "device"; value: string; lastSeenAt: Date; shared: boolean }[]>`
    SELECT s."refereeId", s."kind", s."value", s."lastSeenAt",
      EXISTS (SELECT 1 FROM "AppUserSighting" o WHERE o."appUserId" = s."referrerId" AND o."kind" = s."kind" AND o."value" = s."value") AS "shared"
    FROM (
      SELECT p."referee" AS "refereeId", p."referrer" AS "referrerId", a."kind", a."value", a."lastSeenAt",
        row_number() OVER (PARTITION BY p."referee" ORDER BY a."lastSeenAt" DESC, a."id") AS "n"
      FROM unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[]) AS p("referee", "referrer")
      JOIN "AppUserSighting" a ON a."appUserId" = p."referee"
    ) s
    WHERE s."n" <= ${SIGNALS_PER_REVIEW}
    ORDER BY s."refereeId", s."lastSeenAt" DESC`;
  for (const r of rows) {
    const list = byReferee.get(r.refereeId) ?? [];
    if (!list.some((x) => x.kind === r.kind && x.value === r.value)) {
      list.push({ kind: r.kind, value: r.value, lastSeenAt: r.lastSeenAt.toISOString(), sharedWithReferrer: r.shared });
    }
    byReferee.set(r.refereeId, list);
  }
  return byReferee;
}

async function referrerHistories(db: Db, referrerIds: string[]): Promise<Map<string, ReferrerHistory>> {
  if (referrerIds.length === 0) return new Map();
  const rows = await db.$queryRaw<({ referrerId: string } & ReferrerHistory)[]>`
    SELECT "referrerId", count(*)::int AS "referrals",
      count(*) FILTER (WHERE "status" = 'Completed')::int AS "rewards",
      count(*) FILTER (WHERE "failureReason" = 'denied_in_review')::int AS "denials"
    FROM "ReferralTracking" WHERE "referrerId" = ANY(${referrerIds}::text[])
    GROUP BY 1`;
  return new Map(rows.map(({ referrerId, ...h }) => [referrerId, h]));
}
