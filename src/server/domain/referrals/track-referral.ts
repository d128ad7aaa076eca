import type { Db } from "@/server/db/client";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { readNewUserExperience } from "@/server/domain/campaigns/campaign-config";
import { invalidField, notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { toReferralDto, type ReferralDto } from "@/server/domain/referrals/to-referral-dto";
import { insertTracking } from "./insert-tracking";

export type TrackReferralInput = {
  referralCode: string;
  /**
   * The referee's clientProvidedId; the app user is created if the client has not created it yet.
   * Absent for an anonymous arrival (the client library's landing page): the referee is bound later.
   */
  refereeId?: string;
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
 * count tracked arrivals (the latter once a referee is known).
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
    const referee = refereeId === undefined ? null : (await getOrCreateAppUser(tx, project.id, { clientProvidedId: refereeId })).user;
    const { item, campaign } = await insertTracking(tx, { projectId: project.id, referrer, referee, referralCode, rewardEventName });
    return {
      ...toReferralDto(item),
      promotionalText: readNewUserExperience(campaign.newUserExperience).promoText,
    };
  });
}
