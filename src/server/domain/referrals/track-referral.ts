import type { Db } from "@/server/db/client";
import { readNewUserExperience } from "@/server/domain/campaigns/campaign-config";
import { invalidField, notFound } from "@/server/domain/errors";
import type { ReferralDto } from "@/server/domain/referrals/to-referral-dto";
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
 * Records a referral arrival as a Pending tracking item, in one statement (insertTracking). Every call
 * creates a new item (several arrivals are several items; the reward check later lets at most one per
 * referrer/referee pair complete). Counters: the referrer's totalReferralsGiven and the referee's
 * totalReferralsReceived count tracked arrivals (the latter once a referee is known).
 */
export async function trackReferral(
  db: Db,
  organizationId: string,
  projectId: string,
  input: TrackReferralInput,
): Promise<TrackReferralResult> {
  const { referralCode, refereeId = null, rewardEventName = null } = input;
  const tracked = await insertTracking(db, { projectId, organizationId, referralCode, refereeId, rewardEventName });
  if ("refused" in tracked) {
    if (tracked.refused === "project") throw notFound("Project");
    if (tracked.refused === "referral_code") throw notFound("Referral code");
    throw invalidField("refereeId", "self_referral", "A user cannot be referred through their own referral code.");
  }
  return { ...tracked.inserted, promotionalText: readNewUserExperience(tracked.newUserExperience).promoText };
}
