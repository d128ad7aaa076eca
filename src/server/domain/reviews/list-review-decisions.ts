import type { Prisma, TrackingStatus } from "@/generated/prisma/client";
import type { RewardReason } from "@/lib/schemas/referrals";
import type { ReviewReason } from "@/lib/schemas/reward-rules";
import type { Db } from "@/server/db/client";
import { pageWindow, toPage, type PageEnvelope, type PagingInput } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

export type ReviewDecisionDto = {
  id: string;
  trackingId: string;
  decision: "approve" | "deny";
  note: string | null;
  heldFor: ReviewReason[];
  status: TrackingStatus;
  failureReason: RewardReason | null;
  /** Who decided; null when the hold ended by itself. */
  decidedBy: string | null;
  decidedAt: string;
};

/** The review queue's history, newest first; optionally one referral's decisions. */
export async function listReviewDecisions(
  db: Db,
  organizationId: string,
  projectId: string,
  { trackingId, ...paging }: PagingInput & { trackingId?: string },
): Promise<PageEnvelope<ReviewDecisionDto>> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const window = pageWindow(paging);
  const where: Prisma.ReviewDecisionWhereInput = { projectId: project.id, ...(trackingId ? { trackingId } : {}) };
  const [rows, totalCount] = await Promise.all([
    db.reviewDecision.findMany({ where, orderBy: [{ decidedAt: "desc" }, { id: "desc" }], skip: window.skip, take: window.pageSize }),
    db.reviewDecision.count({ where }),
  ]);
  return toPage(
    rows.map((d) => ({
      id: d.id,
      trackingId: d.trackingId,
      decision: d.decision as "approve" | "deny",
      note: d.note,
      heldFor: d.heldFor as ReviewReason[],
      status: d.status,
      failureReason: d.failureReason as RewardReason | null,
      decidedBy: d.actorLabel,
      decidedAt: d.decidedAt.toISOString(),
    })),
    window,
    totalCount,
  );
}
