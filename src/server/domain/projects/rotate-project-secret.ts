import type { Prisma } from "@/generated/prisma/client";
import { hashToken, newToken } from "@/server/domain/tokens";
import { getOwnedProject } from "./get-owned-project";
import { PROJECT_SECRET_WARNING } from "./to-project-dto";

/** A new `sk_` secret; the old one stops working at once. */
export async function rotateProjectSecret(db: Prisma.TransactionClient, organizationId: string, projectId: string) {
  const project = await getOwnedProject(db, organizationId, projectId);
  const secret = newToken("sk_");
  await db.project.update({
    where: { id: projectId },
    data: { secretHash: hashToken(secret), secretPrefix: secret.slice(0, 7) },
  });
  return { projectSecret: secret, warning: PROJECT_SECRET_WARNING, project: { id: project.id, name: project.name } };
}
