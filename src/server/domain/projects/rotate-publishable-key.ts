import type { Prisma } from "@/generated/prisma/client";
import { getOwnedProject } from "./get-owned-project";
import { newPublishableKey } from "./project-keys";
import { toProjectDto, withCampaign } from "./to-project-dto";

/**
 * A new `pk_` key; the old one stops working at once. For a key copied somewhere it should not be
 * (it is not a secret, but a project may want to cut off an old app version or a scraped page).
 */
export async function rotatePublishableKey(db: Prisma.TransactionClient, organizationId: string, projectId: string) {
  await getOwnedProject(db, organizationId, projectId);
  const project = await db.project.update({ where: { id: projectId }, data: { publishableKey: newPublishableKey() }, include: withCampaign });
  return toProjectDto(project);
}
