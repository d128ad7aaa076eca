import type { Db } from "@/server/db/client";
import { toProjectDto, withCampaign } from "./to-project-dto";

/** The organisation's projects, oldest first. */
export async function listProjects(db: Db, organizationId: string) {
  const projects = await db.project.findMany({ where: { organizationId }, include: withCampaign, orderBy: { createdAt: "asc" } });
  return projects.map(toProjectDto);
}
