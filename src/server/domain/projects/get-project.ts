import type { Db } from "@/server/db/client";
import { notFound } from "@/server/domain/errors";
import { toProjectDto, withCampaign } from "./to-project-dto";

export async function getProject(db: Db, organizationId: string, projectId: string) {
  const project = await db.project.findFirst({ where: { id: projectId, organizationId }, include: withCampaign });
  if (!project) throw notFound("Project");
  return toProjectDto(project);
}
