import { organizationOverviewInput, organizationOverviewSchema } from "@/lib/schemas/overview";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getOrganizationOverview } from "@/server/domain/stats/get-organization-overview";
import { statsWindow } from "@/server/domain/stats/stats-window";

/** The dashboard's organisation overview and projects list: each project's headline figures over the range. */
export const getOrganizationOverviewProcedure = protectedProcedure
  .meta({ permission: "projects.read" })
  .input(organizationOverviewInput)
  .output(organizationOverviewSchema)
  .query(({ ctx, input }) => getOrganizationOverview(ctx.db, ctx.organizationId, statsWindow(input)));
