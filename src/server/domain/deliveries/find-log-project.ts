import type { Prisma } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";

/** The project of a delivery log entry, if the organisation owns it. */
export async function findLogProject(db: Prisma.TransactionClient, organizationId: string, logId: string): Promise<string> {
  const entry = await db.deliveryAttempt.findFirst({ where: { id: logId }, select: { projectId: true } });
  const owned = entry && (await db.project.count({ where: { id: entry.projectId, organizationId } }));
  if (!entry || !owned) throw notFound("Delivery log entry");
  return entry.projectId;
}
