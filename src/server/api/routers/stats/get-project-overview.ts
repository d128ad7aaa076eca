import { projectOverviewInput, projectOverviewSchema } from "@/lib/schemas/overview";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getProjectOverview } from "@/server/domain/stats/get-project-overview";
import { statsWindow } from "@/server/domain/stats/stats-window";

/** The dashboard's project overview (not REST: the stats and leaderboard operations are its public part). */
export const getProjectOverviewProcedure = protectedProcedure
  .meta({ permission: "referrals.read" })
  .input(projectOverviewInput)
  .output(projectOverviewSchema)
  .query(({ ctx, input: { projectId, from, to } }) => getProjectOverview(ctx.db, ctx.organizationId, projectId, statsWindow({ from, to })));
