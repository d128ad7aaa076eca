import type { OrganizationOverview } from "@/lib/schemas/overview";
import type { Db } from "@/server/db/client";
import { getProjectStats } from "./get-project-stats";
import type { StatsWindow } from "./stats-window";

/** Projects whose figures are read at once: each takes a handful of the pool's connections. */
const CONCURRENCY = 2;

/** Every project of the organisation with its headline figures over the window, oldest project first. */
export async function getOrganizationOverview(db: Db, organizationId: string, w: StatsWindow): Promise<OrganizationOverview> {
  const projects = await db.project.findMany({ where: { organizationId }, select: { id: true, name: true, appType: true }, orderBy: { createdAt: "asc" } });
  const totals: OrganizationOverview["projects"] = new Array(projects.length);
  let next = 0;
  const work = async () => {
    while (next < projects.length) {
      const i = next++;
      const p = projects[i]!;
      totals[i] = { projectId: p.id, name: p.name, appType: p.appType, totals: (await getProjectStats(db, p, w)).totals };
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, work));
  return { from: w.from, to: w.to, projects: totals };
}
