import type { UpdateProjectInput } from "@/lib/schemas/projects";
import type { UrlRules } from "@/server/config";
import type { Prisma } from "@/generated/prisma/client";
import { DomainError, invalidField, notFound } from "@/server/domain/errors";
import { requireHttps } from "./require-https";
import { requireUploadedIcon } from "./require-uploaded-icon";
import { appDetailsColumns, toProjectDto, withCampaign } from "./to-project-dto";

/**
 * Changes the fields present; `appType` may be sent only with its current value. Answers the project
 * as it is now, and as it was `before` (the audit log records what changed).
 */
export async function updateProject(db: Prisma.TransactionClient, organizationId: string, projectId: string, input: UpdateProjectInput, rules: UrlRules) {
  const project = await db.project.findFirst({ where: { id: projectId, organizationId }, include: withCampaign });
  if (!project) throw notFound("Project");
  if (input.appType !== undefined && input.appType !== project.appType) {
    throw invalidField("appType", "immutable", `appType is set at creation and cannot change (this project is ${project.appType}).`);
  }
  if (input.identityVerification && !project.secretEncrypted) {
    const message =
      "Rotate the project secret before turning identity verification on: this project's secret was issued before the service " +
      "kept what it needs to check userHash (only its hash is stored).";
    throw new DomainError("conflict", message, [{ field: "identityVerification", rule: "rotate_secret_first", message }]);
  }
  requireHttps(input, rules);
  requireUploadedIcon(input.app, project.iconUrl);
  const updated = await db.project.update({
    where: { id: projectId },
    data: {
      name: input.name,
      description: input.description,
      referralRedirectLink: input.referralRedirectLink,
      allowedOrigins: input.allowedOrigins,
      identityVerification: input.identityVerification,
      ...appDetailsColumns(input.app),
    },
    include: withCampaign,
  });
  return { project: toProjectDto(updated), before: toProjectDto(project) };
}
