import type { Prisma } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";

/**
 * The project if the organisation owns it. Another organisation's project is "not found", exactly
 * like an absent one, so ids cannot be probed.
 */
export async function getOwnedProject(db: Prisma.TransactionClient, organizationId: string, projectId: string) {
  const project = await db.project.findFirst({ where: { id: projectId, organizationId } });
  if (!project) throw notFound("Project");
  return project;
}
