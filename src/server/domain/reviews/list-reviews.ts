import type { RewardEnvironment } from "@/generated/prisma/client";
import type { ReviewReason } from "@/lib/schemas/reward-rules";
import type { Db } from "@/server/db/client";
import { pageWindow, toPage, type PageEnvelope, type PagingInput } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

export type ReviewDto = {
  trackingId: string;
  referrerId: string | null;
  referrerUniqueId: string | null;
  refereeId: string | null;
  refereeUniqueId: string | null;
  /** The event the reward completes with. */
  event: string;
  environment: RewardEnvironment | null;
  /** Why it is held. */
  reasons: ReviewReason[];
  /** When the hold ends and the reward completes by itself; null when a person must decide. */
  holdUntil: string | null;
  heldAt: string;
};

/** The project's review queue, oldest first (the order in which they should be decided). */
export async function listReviews(db: Db, organizationId: string, projectId: string, paging: PagingInput): Promise<PageEnvelope<ReviewDto>> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const window = pageWindow(paging);
  const where = { projectId: project.id };
  const [rows, totalCount] = await Promise.all([
    db.rewardReview.findMany({
      where,
      orderBy: [{ createdAt: "asc" }, { trackingId: "asc" }],
      skip: window.skip,
      take: window.pageSize,
      include: { tracking: { select: { referrerId: true, refereeId: true, referrer: { select: { clientProvidedId: true } }, referee: { select: { clientProvidedId: true } } } } },
    }),
    db.rewardReview.count({ where }),
  ]);
  return toPage(
    rows.map((r) => ({
      trackingId: r.trackingId,
      referrerId: r.tracking.referrer?.clientProvidedId ?? null,
      referrerUniqueId: r.tracking.referrerId,
      refereeId: r.tracking.referee?.clientProvidedId ?? null,
      refereeUniqueId: r.tracking.refereeId,
      event: r.eventName,
      environment: r.environment,
      reasons: r.reasons as ReviewReason[],
      holdUntil: r.holdUntil?.toISOString() ?? null,
      heldAt: r.createdAt.toISOString(),
    })),
    window,
    totalCount,
  );
}
