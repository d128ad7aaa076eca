import type { Db } from "@/server/db/client";
import { toAppUserDto, appUserDtoInclude, type AppUserDto } from "@/server/domain/app-users/to-app-user-dto";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

/** By the service-generated uniqueId. */
export async function getAppUser(db: Db, organizationId: string, projectId: string, uniqueId: string): Promise<AppUserDto> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const user = await db.appUser.findFirst({ where: { id: uniqueId, projectId: project.id }, include: appUserDtoInclude });
  if (!user) throw notFound("App user");
  return toAppUserDto(user);
}
