import type { Prisma } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";

/** Deletes the project; every row of its data goes with it by cascade. Its name, for the audit log. */
export async function deleteProject(db: Prisma.TransactionClient, organizationId: string, projectId: string) {
  const [deleted] = await db.$queryRaw<{ name: string }[]>`
    DELETE FROM "Project" WHERE "id" = ${projectId} AND "organizationId" = ${organizationId} RETURNING "name"`;
  if (!deleted) throw notFound("Project");
  return { id: projectId, name: deleted.name };
}
