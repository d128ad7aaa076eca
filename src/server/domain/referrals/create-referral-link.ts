import type { Db } from "@/server/db/client";
import { invalidField, notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { buildReferralLink } from "@/server/domain/referrals/build-referral-link";

export type CreateReferralLinkInput = {
  /** The referrer's clientProvidedId. */
  referrerId: string;
  /** Pre-assigns the qualifying event: only a reward event with exactly this name can claim. */
  rewardEventName?: string;
};

export type ReferralLinkDto = {
  referralLink: string;
  referralCode: string;
  referrerId: string;
  rewardEventName: string | null;
};

export async function createReferralLink(
  db: Db,
  organizationId: string,
  projectId: string,
  input: CreateReferralLinkInput,
  /** This app's public origin: Mobile projects' links point at its hosted landing page. */
  publicOrigin: string,
): Promise<ReferralLinkDto> {
  const { referrerId, rewardEventName = null } = input;
  const project = await getOwnedProject(db, organizationId, projectId);
  if (project.appType === "Web" && !project.referralRedirectLink) {
    throw invalidField(
      "referralRedirectLink",
      "required",
      "The project has no referral redirect link; set one on the project before creating referral links.",
    );
  }
  const referrer = await db.appUser.findUnique({
    where: { projectId_clientProvidedId: { projectId: project.id, clientProvidedId: referrerId } },
    select: { referralCode: true },
  });
  if (!referrer) throw notFound("Referrer");
  return {
    referralLink: buildReferralLink(project, referrer.referralCode, rewardEventName, publicOrigin)!,
    referralCode: referrer.referralCode,
    referrerId,
    rewardEventName,
  };
}
