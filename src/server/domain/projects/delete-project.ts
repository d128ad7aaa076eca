import type { Db } from "@/server/db/client";
import { notFound } from "@/server/domain/errors";

/** Deletes the project; every row of its data goes with it by cascade. */
export async function deleteProject(db: Db, organizationId: string, projectId: string) {
  const { count } = await db.project.deleteMany({ where: { id: projectId, organizationId } });
  if (!count) throw notFound("Project");
}
