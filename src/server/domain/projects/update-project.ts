import type { UpdateProjectInput } from "@/lib/schemas/projects";
import type { UrlRules } from "@/server/config";
import type { Db } from "@/server/db/client";
import { invalidField } from "@/server/domain/errors";
import { getOwnedProject } from "./get-owned-project";
import { requireHttps } from "./require-https";
import { appDetailsColumns, toProjectDto, withCampaign } from "./to-project-dto";

/** Changes the fields present; `appType` may be sent only with its current value. */
export async function updateProject(db: Db, organizationId: string, projectId: string, input: UpdateProjectInput, rules: UrlRules) {
  const project = await getOwnedProject(db, organizationId, projectId);
  if (input.appType !== undefined && input.appType !== project.appType) {
    throw invalidField("appType", "immutable", `appType is set at creation and cannot change (this project is ${project.appType}).`);
  }
  requireHttps(input, rules);
  const updated = await db.project.update({
    where: { id: projectId },
    data: {
      name: input.name,
      description: input.description,
      referralRedirectLink: input.referralRedirectLink,
      allowedOrigins: input.allowedOrigins,
      ...appDetailsColumns(input.app),
    },
    include: withCampaign,
  });
  return toProjectDto(updated);
}
