import type { Db } from "@/server/db/client";
import { toAppUserDto, withReferrer, type AppUserDto } from "@/server/domain/app-users/to-app-user-dto";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

/** By the id the client assigned in its own database (exact, case-sensitive match). */
export async function getAppUserByClientId(
  db: Db,
  organizationId: string,
  projectId: string,
  clientProvidedId: string,
): Promise<AppUserDto> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const user = await db.appUser.findUnique({
    where: { projectId_clientProvidedId: { projectId: project.id, clientProvidedId } },
    include: withReferrer,
  });
  if (!user) throw notFound("App user");
  return toAppUserDto(user);
}
