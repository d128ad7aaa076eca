import type { Db } from "@/server/db/client";
import { notFound } from "@/server/domain/errors";

/** The id of a project's app user by the client's own id; "not found" when there is none. */
export async function findSdkUser(db: Db, projectId: string, clientProvidedId: string): Promise<string> {
  const user = await db.appUser.findUnique({ where: { projectId_clientProvidedId: { projectId, clientProvidedId } }, select: { id: true } });
  if (!user) throw notFound("App user");
  return user.id;
}
