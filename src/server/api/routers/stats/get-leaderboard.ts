import { MAX_LEADERBOARD_LIMIT } from "@/lib/schemas/stats";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { getLeaderboard } from "@/server/domain/stats/get-leaderboard";
import { leaderboardInput, leaderboardSchema } from "./stats.types";

export const getLeaderboardProcedure = protectedProcedure
  .meta({
    permission: "referrals.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/leaderboard",
      tags: ["Insight"],
      summary: "The project's best referrers",
      description:
        "The app users with the most successful referrals (rewards claimed) of all time, best first; users without one are not listed. " +
        `\`limit\` is 1 to ${MAX_LEADERBOARD_LIMIT}; outside it, a 400 naming it.`,
    },
  })
  .input(leaderboardInput)
  .output(leaderboardSchema)
  .query(async ({ ctx, input: { projectId, limit } }) => {
    const project = await getOwnedProject(ctx.db, ctx.organizationId, projectId);
    return { items: await getLeaderboard(ctx.db, project.id, limit) };
  });
