import { Prisma, type AttributionModel, type TrackingStatus } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";
import { prepared } from "@/server/db/prepared-statements";

/** A tracking item with what reporting a reward event needs of its parties, campaign and project. */
export type RewardItem = {
  id: string;
  campaignId: string;
  referrerId: string;
  /** Null until the referee is bound (see bindReferee). */
  refereeId: string | null;
  rewardEventName: string | null;
  status: TrackingStatus;
  createdAt: Date;
  referrerClientId: string;
  refereeClientId: string | null;
  attributionWindowDays: number;
  attributionModel: AttributionModel;
  /** The campaign's stored reward rules (readRewardRules reads them). */
  rewardRules: unknown;
  /** The campaign's stored milestones (readMilestones reads them), reached in the claim's statement. */
  milestones: unknown;
  /** The referee's `email` attribute, for the disposable e-mail rule. */
  refereeEmail: string | null;
  /** The item waits in the review queue (a RewardReview row exists). */
  inReview: boolean;
  /** The farming facts (see decideReward): the referee's rewards and other open arrivals. */
  refereeRewarded: boolean;
  reverseRewarded: boolean;
  earlierArrivalOpen: boolean;
  laterArrivalOpen: boolean;
};

/** An item whose referee is known: the only kind a reward can be decided for. */
export type BoundRewardItem = RewardItem & { refereeId: string; refereeClientId: string };

export const isBound = (item: RewardItem): item is BoundRewardItem => item.refereeId !== null;

/** The columns of rewardItemSelect: all null when the organisation has no such project, the item's when it has no such item. */
export type LoadedRow = Omit<RewardItem, "id" | "referrerId" | "referrerClientId"> & {
  projectId: string | null;
  projectName: string | null;
  organizationId: string | null;
  id: string | null;
  referrerId: string | null;
  referrerClientId: string | null;
};

/** How an erased referrer reads where a name is needed; such an item is final (erasure fails Pending ones). */
export const ERASED_PARTY = "(erased)";

/**
 * The project (if the organisation owns it) and the item in it, in one statement. Prisma loads each
 * relation with its own query and the reward path is bound by Node CPU per statement, so this replaces
 * seven (project, item, both parties, campaign, the referee's rewards, their other arrivals). The item
 * side is a LEFT JOIN so that an unknown item and a foreign or absent project stay two different
 * "not found"s. Grandfathered rewards count: a referee or pair rewarded before the rules stays so.
 */
export async function loadRewardItem(db: Pick<Prisma.TransactionClient, "$queryRaw">, organizationId: string, projectId: string, trackingId: string, now = new Date()) {
  const [row] = await prepared<LoadedRow>(db)`${rewardItemSelect({ organizationId, projectId, trackingId, now })}`;
  return readLoaded(row);
}

export type RewardItemTarget = { organizationId: string; projectId: string; trackingId: string; now: Date };

/** loadRewardItem's SELECT, also the reward claim's first part (claim-reward.ts): at most one row. */
export const rewardItemSelect = ({ organizationId, projectId, trackingId, now }: RewardItemTarget) => Prisma.sql`
    SELECT p."id" AS "projectId", p."name" AS "projectName", p."organizationId",
      t."id", t."campaignId", t."referrerId", t."refereeId", t."rewardEventName", t."status"::text AS "status",
      t."createdAt", referrer."clientProvidedId" AS "referrerClientId", referee."clientProvidedId" AS "refereeClientId",
      c."attributionWindowDays", c."attributionModel"::text AS "attributionModel", c."rewardRules", c."milestones",
      referee."attributes"->>'email' AS "refereeEmail",
      EXISTS (SELECT FROM "RewardReview" r WHERE r."trackingId" = t."id") AS "inReview",
      EXISTS (SELECT FROM "RewardHistory" h WHERE h."refereeId" = t."refereeId") AS "refereeRewarded",
      EXISTS (SELECT FROM "RewardHistory" h WHERE h."referrerId" = t."refereeId" AND h."refereeId" = t."referrerId") AS "reverseRewarded",
      EXISTS (SELECT FROM "ReferralTracking" o WHERE o."refereeId" = t."refereeId" AND o."status" = 'Pending'
        AND o."createdAt" >= CAST(${now} AS timestamp(3)) - make_interval(days => c."attributionWindowDays")
        AND (o."createdAt", o."id") < (t."createdAt", t."id")) AS "earlierArrivalOpen",
      EXISTS (SELECT FROM "ReferralTracking" o WHERE o."refereeId" = t."refereeId" AND o."status" = 'Pending'
        AND (o."createdAt", o."id") > (t."createdAt", t."id")) AS "laterArrivalOpen"
    FROM "Project" p
    LEFT JOIN ("ReferralTracking" t
      LEFT JOIN "AppUser" referrer ON referrer."id" = t."referrerId"
      LEFT JOIN "AppUser" referee ON referee."id" = t."refereeId"
      JOIN "Campaign" c ON c."id" = t."campaignId")
      ON t."id" = ${trackingId} AND t."projectId" = p."id"
    WHERE p."id" = ${projectId} AND p."organizationId" = ${organizationId}`;

/** What loadRewardItem answers, from rewardItemSelect's row (absent or all null: no such project). */
export function readLoaded(row: LoadedRow | undefined) {
  if (!row?.projectId || row.projectName === null || row.organizationId === null) throw notFound("Project");
  const { projectId: id, projectName: name, organizationId, referrerId, referrerClientId, ...item } = row;
  if (item.id === null) throw notFound("Referral tracking item");
  return {
    project: { id, name, organizationId },
    item: { ...item, id: item.id, referrerId: referrerId ?? "", referrerClientId: referrerClientId ?? ERASED_PARTY } satisfies RewardItem,
    referrerErased: referrerId === null,
  };
}
