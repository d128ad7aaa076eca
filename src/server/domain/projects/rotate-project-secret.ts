import type { Prisma } from "@/generated/prisma/client";
import { overlapEnd } from "@/lib/schemas/rotation";
import { getOwnedProject } from "./get-owned-project";
import { newProjectSecret, projectSecretColumns } from "./project-keys";
import { PROJECT_SECRET_WARNING } from "./to-project-dto";

/**
 * A new `sk_` secret. Without an overlap the old one stops working at once (every instance drops its
 * cached project when this commits); with one it keeps authenticating until the overlap ends
 * (authenticateProjectKey checks the end on every call). A secret older than the one replaced is
 * dropped either way: at most two are valid at a time.
 */
export async function rotateProjectSecret(db: Prisma.TransactionClient, organizationId: string, projectId: string, overlapHours = 0, now = new Date()) {
  const project = await getOwnedProject(db, organizationId, projectId);
  const secret = newProjectSecret();
  const until = overlapEnd(overlapHours, now);
  const previous = until
    ? { previousSecretHash: project.secretHash, previousSecretEncrypted: project.secretEncrypted, previousSecretExpiresAt: until }
    : { previousSecretHash: null, previousSecretEncrypted: null, previousSecretExpiresAt: null };
  await db.project.update({ where: { id: projectId }, data: { ...projectSecretColumns(secret), ...previous } });
  return {
    projectSecret: secret,
    warning: PROJECT_SECRET_WARNING,
    previousSecretExpiresAt: until?.toISOString() ?? null,
    project: { id: project.id, name: project.name },
  };
}
