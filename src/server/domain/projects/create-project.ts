import type { UrlRules } from "@/server/config";
import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { defaultNewUserExperience, defaultReferrerExperience } from "@/lib/schemas/campaigns";
import type { CreateProjectInput } from "@/lib/schemas/projects";
import { newProjectSecret, newPublishableKey, projectSecretColumns } from "./project-keys";
import { requireHttps } from "./require-https";
import { requireUploadedIcon } from "./require-uploaded-icon";
import { appDetailsColumns, withCampaign } from "./to-project-dto";

/**
 * Creates the project with its campaign (default configuration) in one transaction and returns the
 * `sk_` project secret, which is never shown again (see projectSecretColumns for how it is kept).
 */
export function createProject(db: Db, organizationId: string, input: CreateProjectInput, rules: UrlRules) {
  return db.$transaction((tx) => insertProject(tx, organizationId, input, rules));
}

/** The same inside the caller's transaction (an audited create's). */
export async function insertProject(tx: Prisma.TransactionClient, organizationId: string, input: CreateProjectInput, rules: UrlRules) {
  requireHttps(input, rules);
  requireUploadedIcon(input.app, null);
  const secret = newProjectSecret();
  const created = await tx.project.create({
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
      projectId: created.id,
      referrerExperience: defaultReferrerExperience,
      newUserExperience: defaultNewUserExperience,
    },
  });
  const project = await tx.project.findUniqueOrThrow({ where: { id: created.id }, include: withCampaign });
  return { project, secret };
}
