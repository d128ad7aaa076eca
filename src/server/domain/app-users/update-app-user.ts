import type { AppUserAttributes } from "@/lib/schemas/app-users";
import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { selectAppUser, toAppUserDto, type AppUserDto } from "@/server/domain/app-users/to-app-user-dto";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

export type UpdateAppUserInput = { uniqueId: string; attributes: AppUserAttributes };

/** Replaces the whole attributes map (keys not sent are removed), as the spec requires. */
export async function updateAppUser(
  db: Db,
  organizationId: string,
  projectId: string,
  input: UpdateAppUserInput,
): Promise<AppUserDto> {
  const { attributes } = input;
  const project = await getOwnedProject(db, organizationId, projectId);
  const { count } = await db.appUser.updateMany({ where: { id: input.uniqueId, projectId: project.id }, data: { attributes } });
  if (count === 0) throw notFound("App user");
  const user = await selectAppUser(db, Prisma.sql`u."id" = ${input.uniqueId}`);
  if (!user) throw notFound("App user");
  return toAppUserDto(user);
}
