import type { Db } from "@/server/db/client";
import { toActivityDto } from "@/server/domain/activity/activity-dto";
import { invalidField, notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

export const DEFAULT_USER_EVENTS_LIMIT = 50;
export const MAX_USER_EVENTS_LIMIT = 100;

/** `AppUserEventDto` plus its timestamp. */
export type AppUserEventDto = { id: string; type: string; description: string; createdAt: string };

/** One app user's timeline, newest first, at most `limit` entries (1..100, default 50). */
export async function listAppUserEvents(
  db: Db,
  organizationId: string,
  projectId: string,
  input: { uniqueId: string; limit?: number },
): Promise<AppUserEventDto[]> {
  const limit = input.limit ?? DEFAULT_USER_EVENTS_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_USER_EVENTS_LIMIT) {
    throw invalidField("limit", "range", `Limit must be an integer from 1 to ${MAX_USER_EVENTS_LIMIT}.`);
  }
  const project = await getOwnedProject(db, organizationId, projectId);
  const user = await db.appUser.findFirst({ where: { id: input.uniqueId, projectId: project.id }, select: { id: true } });
  if (!user) throw notFound("App user");
  const rows = await db.activity.findMany({
    where: { appUserId: user.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map((row) => {
    const { appUserId: _, ...event } = toActivityDto(row);
    return event;
  });
}
