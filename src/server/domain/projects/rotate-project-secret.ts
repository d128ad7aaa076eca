import type { Prisma } from "@/generated/prisma/client";
import { getOwnedProject } from "./get-owned-project";
import { newProjectSecret, projectSecretColumns } from "./project-keys";
import { PROJECT_SECRET_WARNING } from "./to-project-dto";

/** A new `sk_` secret; the old one stops working at once (every instance drops its cached project when this commits). */
export async function rotateProjectSecret(db: Prisma.TransactionClient, organizationId: string, projectId: string) {
  const project = await getOwnedProject(db, organizationId, projectId);
  const secret = newProjectSecret();
  await db.project.update({ where: { id: projectId }, data: projectSecretColumns(secret) });
  return { projectSecret: secret, warning: PROJECT_SECRET_WARNING, project: { id: project.id, name: project.name } };
}
