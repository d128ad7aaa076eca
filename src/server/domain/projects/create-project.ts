import type { UrlRules } from "@/server/config";
import type { Db } from "@/server/db/client";
import { defaultNewUserExperience, defaultReferrerExperience } from "@/lib/schemas/campaigns";
import { hashToken, newToken } from "@/server/domain/tokens";
import type { AppType } from "@/generated/prisma/client";
import { appDetailsData, type AppDetails } from "./projects";
import { requireHttps } from "./require-https";

export type CreateProjectInput = {
  name: string;
  description?: string | null;
  appType: AppType;
  referralRedirectLink?: string | null;
  allowedOrigins?: string[];
  app?: Partial<AppDetails> | null;
};

/**
 * Creates the project with its campaign (default configuration) in one transaction and returns the
 * `sk_` project secret, which is stored only as a hash and never shown again.
 */
export async function createProject(db: Db, organizationId: string, input: CreateProjectInput, rules: UrlRules) {
  requireHttps(input, rules);
  const secret = newToken("sk_");
  const project = await db.$transaction(async (tx) => {
    const project = await tx.project.create({
      data: {
        organizationId,
        name: input.name,
        description: input.description ?? null,
        appType: input.appType,
        referralRedirectLink: input.referralRedirectLink ?? null,
        allowedOrigins: input.allowedOrigins ?? [],
        ...appDetailsData(input.app),
        secretHash: hashToken(secret),
        secretPrefix: secret.slice(0, 7),
      },
    });
    await tx.campaign.create({
      data: {
        projectId: project.id,
        referrerExperience: defaultReferrerExperience,
        newUserExperience: defaultNewUserExperience,
      },
    });
    return tx.project.findUniqueOrThrow({ where: { id: project.id }, include: { campaign: true } });
  });
  return { project, secret };
}
