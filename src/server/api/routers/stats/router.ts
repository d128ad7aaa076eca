import { router } from "@/server/api/trpc/procedures";
import { getLeaderboardProcedure } from "./get-leaderboard";
import { getOrganizationOverviewProcedure } from "./get-organization-overview";
import { getProjectOverviewProcedure } from "./get-project-overview";
import { getProjectStatsProcedure } from "./get-project-stats";

export const statsRouter = router({
  project: getProjectStatsProcedure,
  leaderboard: getLeaderboardProcedure,
  projectOverview: getProjectOverviewProcedure,
  organizationOverview: getOrganizationOverviewProcedure,
});
