import type { Prisma } from "@/generated/prisma/client";
import { recordActivity } from "@/server/domain/activity/record-activity";
import { ensureCampaign } from "@/server/domain/campaigns/ensure-campaign";
import { withParties } from "./to-referral-dto";

type Party = { id: string; clientProvidedId: string };

export type NewTracking = {
  projectId: string;
  referrer: Party;
  /** Null for an anonymous arrival: the referee is bound later (see bindReferee). */
  referee: Party | null;
  referralCode: string;
  rewardEventName: string | null;
};

/**
 * The one insert of a Pending tracking item, with what goes with it in the caller's transaction: the
 * referrer's totalReferralsGiven (an arrival through their link), the referee's totalReferralsReceived
 * when the referee is known (else it moves when one is bound), and the activity entry.
 */
export async function insertTracking(tx: Prisma.TransactionClient, tracking: NewTracking) {
  const { projectId, referrer, referee, referralCode, rewardEventName } = tracking;
  const campaign = await ensureCampaign(tx, projectId);
  const item = await tx.referralTracking.create({
    data: { projectId, campaignId: campaign.id, referrerId: referrer.id, refereeId: referee?.id ?? null, referralCode, rewardEventName },
    include: withParties,
  });
  await tx.appUser.update({ where: { id: referrer.id }, data: { totalReferralsGiven: { increment: 1 } } });
  if (referee) await tx.appUser.update({ where: { id: referee.id }, data: { totalReferralsReceived: { increment: 1 } } });
  await recordActivity(tx, {
    projectId,
    appUserId: referrer.id,
    type: "referral_tracked",
    description:
      `${referee ? referee.clientProvidedId : "A visitor not known yet"} arrived through ${referrer.clientProvidedId}'s referral link` +
      (rewardEventName ? ` (qualifying event: ${rewardEventName}).` : "."),
  });
  return { item, campaign };
}
