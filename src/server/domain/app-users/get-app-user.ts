import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { selectAppUser, toAppUserDto, type AppUserDto } from "@/server/domain/app-users/to-app-user-dto";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

/** By the service-generated uniqueId. */
export async function getAppUser(db: Db, organizationId: string, projectId: string, uniqueId: string): Promise<AppUserDto> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const user = await selectAppUser(db, Prisma.sql`u."id" = ${uniqueId} AND u."projectId" = ${project.id}`);
  if (!user) throw notFound("App user");
  return toAppUserDto(user);
}
