import type { UrlRules } from "@/server/config";
import { inTransaction, type DbOrTx } from "@/server/domain/transaction";
import { defaultNewUserExperience, defaultReferrerExperience } from "@/lib/schemas/campaigns";
import { hashToken, newToken } from "@/server/domain/tokens";
import type { CreateProjectInput } from "@/lib/schemas/projects";
import { requireHttps } from "./require-https";
import { appDetailsColumns, withCampaign } from "./to-project-dto";

/**
 * Creates the project with its campaign (default configuration) in one transaction and returns the
 * `sk_` project secret, which is stored only as a hash and never shown again.
 */
export async function createProject(db: DbOrTx, organizationId: string, input: CreateProjectInput, rules: UrlRules) {
  requireHttps(input, rules);
  const secret = newToken("sk_");
  const project = await inTransaction(db, async (tx) => {
    const project = await tx.project.create({
      data: {
        organizationId,
        name: input.name,
        description: input.description ?? null,
        appType: input.appType,
        referralRedirectLink: input.referralRedirectLink ?? null,
        allowedOrigins: input.allowedOrigins ?? [],
        ...appDetailsColumns(input.app),
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
    return tx.project.findUniqueOrThrow({ where: { id: project.id }, include: withCampaign });
  });
  return { project, secret };
}
