import type { NewUserExperience } from "@/lib/schemas/campaigns";
import type { Db } from "@/server/db/client";
import { readAttributes } from "@/server/domain/app-users/to-app-user-dto";
import { readNewUserExperience } from "./campaign-config";

export type NewUserExperienceView = {
  newUserExperience: Pick<NewUserExperience, "promoText" | "promoPosition">;
  /** The referrer's display name (their attribute the campaign names), or null when unknown. */
  referrerName: string | null;
};

/**
 * What the new-user banner shows, for a project whose key the caller presented. An unknown code is
 * no error: the banner still shows, without a name (a stale link must not break a landing page).
 * Reads only: a project without a campaign row gets the defaults.
 */
export async function getNewUserExperience(db: Db, projectId: string, referralCode: string | undefined): Promise<NewUserExperienceView> {
  const campaign = await db.campaign.findUnique({ where: { projectId }, select: { newUserExperience: true } });
  const { promoText, promoPosition, referrerNameAttribute } = readNewUserExperience(campaign?.newUserExperience);
  const referrer = referralCode
    ? await db.appUser.findUnique({ where: { projectId_referralCode: { projectId, referralCode } }, select: { attributes: true } })
    : null;
  const name = referrer ? readAttributes(referrer.attributes)[referrerNameAttribute]?.trim() : undefined;
  return { newUserExperience: { promoText, promoPosition }, referrerName: name || null };
}
