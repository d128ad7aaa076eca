import type { Prisma } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";

/** The project of a delivery log entry, if the organisation owns it. */
export async function findLogProject(db: Prisma.TransactionClient, organizationId: string, logId: string): Promise<string> {
  const entry = await db.deliveryAttempt.findFirst({
    where: { id: logId, delivery: { webhook: { project: { organizationId } } } },
    select: { projectId: true },
  });
  if (!entry) throw notFound("Delivery log entry");
  return entry.projectId;
}
