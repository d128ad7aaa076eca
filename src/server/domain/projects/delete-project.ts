import type { Prisma } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";

/**
 * Deletes the project; its data goes with it by cascade, except its deliveries, reward events and
 * activity entries, which carry no foreign key to it or its webhooks (migrations
 * 20261129211000_reward_rows_without_project_lock, 20261129220000_delivery_without_webhook_lock) and
 * are deleted here, after it: deleting its tracking items waited for the claims in flight on them, so
 * the rows those claims wrote are committed, and these statements see them. Its name, for the audit log.
 */
export async function deleteProject(db: Prisma.TransactionClient, organizationId: string, projectId: string) {
  const [deleted] = await db.$queryRaw<{ name: string }[]>`
    DELETE FROM "Project" WHERE "id" = ${projectId} AND "organizationId" = ${organizationId} RETURNING "name"`;
  if (!deleted) throw notFound("Project");
  await db.$executeRaw`DELETE FROM "Delivery" WHERE "projectId" = ${projectId}`;
  await db.$executeRaw`DELETE FROM "RewardEvent" WHERE "projectId" = ${projectId}`;
  await db.$executeRaw`DELETE FROM "Activity" WHERE "projectId" = ${projectId}`;
  return { id: projectId, name: deleted.name };
}
