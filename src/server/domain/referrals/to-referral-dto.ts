import type { Prisma, TrackingStatus } from "@/generated/prisma/client";

/** Load tracking items with this include so both parties can be shown by their client ids. */
export const withParties = {
  referrer: { select: { clientProvidedId: true } },
  referee: { select: { clientProvidedId: true } },
} satisfies Prisma.ReferralTrackingInclude;
export type ReferralRow = Prisma.ReferralTrackingGetPayload<{ include: typeof withParties }>;

export type ReferralDto = {
  referralTrackingId: string;
  /** The referrer's clientProvidedId. */
  referrerId: string;
  /** The referee's clientProvidedId; null until the referee is known (an anonymous arrival not yet bound). */
  refereeId: string | null;
  /** The parties' uniqueIds, for links to their records. */
  referrerUniqueId: string;
  refereeUniqueId: string | null;
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
  referrerId: row.referrer.clientProvidedId,
  refereeId: row.referee?.clientProvidedId ?? null,
  referrerUniqueId: row.referrerId,
  refereeUniqueId: row.refereeId,
  referralCode: row.referralCode,
  rewardEventName: row.rewardEventName,
  status: row.status,
  failureReason: row.failureReason,
  rewardClaimed: row.rewardClaimed,
  createdAt: row.createdAt.toISOString(),
  rewardClaimedAt: row.rewardClaimedAt?.toISOString() ?? null,
});
