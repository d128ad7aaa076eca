import type { Db } from "@/server/db/client";
import { recordActivity } from "@/server/domain/activity/record-activity";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { ensureCampaign } from "@/server/domain/campaigns/ensure-campaign";
import { readNewUserExperience } from "@/server/domain/campaigns/campaign-config";
import { invalidField, notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { toReferralDto, withParties, type ReferralDto } from "@/server/domain/referrals/to-referral-dto";

export type TrackReferralInput = {
  referralCode: string;
  /** The referee's clientProvidedId; the app user is created if the client has not created it yet. */
  refereeId: string;
  /** The link's `rewardEventName`, when it carried one. */
  rewardEventName?: string;
};

export type TrackReferralResult = ReferralDto & {
  /** The campaign's new-user promo text ("" when none is configured), for the banner. */
  promotionalText: string;
};

/**
 * Records a referral arrival as a Pending tracking item. Every call creates a new item (several
 * arrivals are several items; the reward check later lets at most one per referrer/referee pair
 * complete). Counters: the referrer's totalReferralsGiven and the referee's totalReferralsReceived
 * count tracked arrivals.
 */
export async function trackReferral(
  db: Db,
  organizationId: string,
  projectId: string,
  input: TrackReferralInput,
): Promise<TrackReferralResult> {
  const { referralCode, refereeId, rewardEventName = null } = input;
  const project = await getOwnedProject(db, organizationId, projectId);
  const referrer = await db.appUser.findUnique({
    where: { projectId_referralCode: { projectId: project.id, referralCode } },
    select: { id: true, clientProvidedId: true },
  });
  if (!referrer) throw notFound("Referral code");
  // Refused here for a clear answer; the reward check repeats it for items that predate this rule.
  if (referrer.clientProvidedId === refereeId) {
    throw invalidField("refereeId", "self_referral", "A user cannot be referred through their own referral code.");
  }
  return db.$transaction(async (tx) => {
    const campaign = await ensureCampaign(tx, project.id);
    const { user: referee } = await getOrCreateAppUser(tx, project.id, { clientProvidedId: refereeId });
    const item = await tx.referralTracking.create({
      data: {
        projectId: project.id,
        campaignId: campaign.id,
        referrerId: referrer.id,
        refereeId: referee.id,
        referralCode,
        rewardEventName,
      },
      include: withParties,
    });
    await tx.appUser.update({ where: { id: referrer.id }, data: { totalReferralsGiven: { increment: 1 } } });
    await tx.appUser.update({ where: { id: referee.id }, data: { totalReferralsReceived: { increment: 1 } } });
    await recordActivity(tx, {
      projectId: project.id,
      appUserId: referrer.id,
      type: "referral_tracked",
      description:
        `${refereeId} arrived through ${referrer.clientProvidedId}'s referral link` +
        (rewardEventName ? ` (qualifying event: ${rewardEventName}).` : "."),
    });
    return {
      ...toReferralDto(item),
      promotionalText: readNewUserExperience(campaign.newUserExperience).promoText,
    };
  });
}
