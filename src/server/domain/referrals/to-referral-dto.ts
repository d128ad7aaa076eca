import type { Prisma, TrackingStatus } from "@/generated/prisma/client";

/** Load tracking items with this include so both parties can be shown by their client ids. */
export const withParties = {
  referrer: { select: { clientProvidedId: true } },
  referee: { select: { clientProvidedId: true } },
} satisfies Prisma.ReferralTrackingInclude;
export type ReferralRow = Prisma.ReferralTrackingGetPayload<{ include: typeof withParties }>;

export type ReferralDto = {
  referralTrackingId: string;
  /** The referrer's clientProvidedId; null once the referrer was erased. */
  referrerId: string | null;
  /** The referee's clientProvidedId; null until the referee is known (an anonymous arrival not yet bound), or once erased. */
  refereeId: string | null;
  /** The parties' uniqueIds, for links to their records. */
  referrerUniqueId: string | null;
  refereeUniqueId: string | null;
  /** The party was erased: what named them is gone, the item stays. */
  referrerErased: boolean;
  refereeErased: boolean;
  referralCode: string;
  rewardEventName: string | null;
  status: TrackingStatus;
  /** Machine-readable reason when status is Failed. */
  failureReason: string | null;
  rewardClaimed: boolean;
  createdAt: string;
  rewardClaimedAt: string | null;
};

export const toReferralDto = (row: ReferralRow): ReferralDto => ({
  referralTrackingId: row.id,
  referrerId: row.referrer?.clientProvidedId ?? null,
  refereeId: row.referee?.clientProvidedId ?? null,
  referrerUniqueId: row.referrerId,
  refereeUniqueId: row.refereeId,
  referrerErased: row.referrerErased,
  refereeErased: row.refereeErased,
  referralCode: row.referralCode,
  rewardEventName: row.rewardEventName,
  status: row.status,
  failureReason: row.failureReason,
  rewardClaimed: row.rewardClaimed,
  createdAt: row.createdAt.toISOString(),
  rewardClaimedAt: row.rewardClaimedAt?.toISOString() ?? null,
});
