import type { Prisma } from "@/generated/prisma/client";
import { defaultNewUserExperience, defaultReferrerExperience } from "@/lib/schemas/campaigns";

/**
 * The project's campaign, created with the defaults if it is missing. Projects are created with one,
 * but the spec has the campaign update create the configuration when none exists, so every reader
 * goes through here rather than assuming.
 */
export function ensureCampaign(tx: Prisma.TransactionClient, projectId: string) {
  return tx.campaign.upsert({
    where: { projectId },
    create: { projectId, referrerExperience: defaultReferrerExperience, newUserExperience: defaultNewUserExperience },
    update: {},
  });
}
