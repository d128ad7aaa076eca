import type { UrlRules } from "@/server/config";
import type { Db } from "@/server/db/client";
import { defaultNewUserExperience, defaultReferrerExperience } from "@/lib/schemas/campaigns";
import type { CreateProjectInput } from "@/lib/schemas/projects";
import { newProjectSecret, newPublishableKey, projectSecretColumns } from "./project-keys";
import { requireHttps } from "./require-https";
import { appDetailsColumns, withCampaign } from "./to-project-dto";

/**
 * Creates the project with its campaign (default configuration) in one transaction and returns the
 * `sk_` project secret, which is never shown again (see projectSecretColumns for how it is kept).
 */
export async function createProject(db: Db, organizationId: string, input: CreateProjectInput, rules: UrlRules) {
  requireHttps(input, rules);
  const secret = newProjectSecret();
  const project = await db.$transaction(async (tx) => {
    const project = await tx.project.create({
      data: {
        organizationId,
        name: input.name,
        description: input.description ?? null,
        appType: input.appType,
        referralRedirectLink: input.referralRedirectLink ?? null,
        allowedOrigins: input.allowedOrigins ?? [],
        identityVerification: input.identityVerification ?? false,
        ...appDetailsColumns(input.app),
        ...projectSecretColumns(secret),
        publishableKey: newPublishableKey(),
      },
    });
    await tx.campaign.create({
      data: {
        projectId: project.id,
        referrerExperience: defaultReferrerExperience,
        newUserExperience: defaultNewUserExperience,
      },
    });
    return tx.project.findUniqueOrThrow({ where: { id: project.id }, include: withCampaign });
  });
  return { project, secret };
}
