import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS } from "@/lib/schemas/stats";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { getProjectStats } from "@/server/domain/stats/get-project-stats";
import { statsWindow } from "@/server/domain/stats/stats-window";
import { projectStatsInput, projectStatsSchema } from "./stats.types";

export const getProjectStatsProcedure = protectedProcedure
  .meta({
    permission: "referrals.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/stats",
      tags: ["Insight"],
      summary: "The project's figures over a range of days",
      description:
        `Totals and a daily series over the UTC days \`from\` to \`to\`, both included (default: the last ${DEFAULT_RANGE_DAYS} days, today included). ` +
        "`daily` has one entry per day, zeros included. A `to` before `from`, a date that is not `YYYY-MM-DD`, or a range of more than " +
        `${MAX_RANGE_DAYS} days is a 400 naming the parameter.`,
    },
  })
  .input(projectStatsInput)
  .output(projectStatsSchema)
  .query(async ({ ctx, input: { projectId, from, to } }) => {
    const project = await getOwnedProject(ctx.db, ctx.organizationId, projectId);
    return getProjectStats(ctx.db, project, statsWindow({ from, to }));
  });
