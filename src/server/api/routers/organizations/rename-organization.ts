import { organizationBody } from "@/lib/schemas/accounts";
import { memberProcedure } from "@/server/api/trpc";
import { renameOrganization } from "@/server/domain/organizations/rename-organization";

export const renameOrganizationProcedure = memberProcedure
  .meta({ permission: "organization.rename" })
  .input(organizationBody)
  .mutation(({ ctx, input }) => renameOrganization(ctx.db, ctx.organizationId, input.name));
