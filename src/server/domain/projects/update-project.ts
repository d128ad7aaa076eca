import type { UpdateProjectInput } from "@/lib/schemas/projects";
import type { UrlRules } from "@/server/config";
import type { Db } from "@/server/db/client";
import { DomainError, invalidField } from "@/server/domain/errors";
import { getOwnedProject } from "./get-owned-project";
import { requireHttps } from "./require-https";
import { requireUploadedIcon } from "./require-uploaded-icon";
import { appDetailsColumns, toProjectDto, withCampaign } from "./to-project-dto";

/** Changes the fields present; `appType` may be sent only with its current value. */
export async function updateProject(db: Db, organizationId: string, projectId: string, input: UpdateProjectInput, rules: UrlRules) {
  const project = await getOwnedProject(db, organizationId, projectId);
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
  return toProjectDto(updated);
}
