import type { Db } from "@/server/db/client";
import { toActivityDto } from "@/server/domain/activity/activity-dto";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

/** `AppUserEventDto` plus its timestamp. */
export type AppUserEventDto = { id: string; type: string; description: string; createdAt: string };

/** One app user's timeline, newest first, at most `limit` entries. */
export async function listAppUserEvents(
  db: Db,
  organizationId: string,
  projectId: string,
  input: { uniqueId: string; limit: number },
): Promise<AppUserEventDto[]> {
  const { limit } = input;
  const project = await getOwnedProject(db, organizationId, projectId);
  const user = await db.appUser.findFirst({ where: { id: input.uniqueId, projectId: project.id }, select: { id: true } });
  if (!user) throw notFound("App user");
  const rows = await db.activity.findMany({
    where: { appUserId: user.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map((row) => {
    const { appUserId: _, trackingId: __, ...event } = toActivityDto(row);
    return event;
  });
}
