import type { Db } from "@/server/db/client";
import { toActivityDto, type ActivityDto } from "@/server/domain/activity/activity-dto";
import { pageWindow, toPage, type PageEnvelope, type PagingInput } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

/** The project's recent activity, newest first. */
export async function listActivity(
  db: Db,
  organizationId: string,
  projectId: string,
  input: PagingInput,
): Promise<PageEnvelope<ActivityDto>> {
  const paging = pageWindow(input);
  const project = await getOwnedProject(db, organizationId, projectId);
  const where = { projectId: project.id };
  const [rows, totalCount] = await Promise.all([
    db.activity.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: paging.skip,
      take: paging.pageSize,
    }),
    db.activity.count({ where }),
  ]);
  return toPage(rows.map(toActivityDto), paging, totalCount);
}
