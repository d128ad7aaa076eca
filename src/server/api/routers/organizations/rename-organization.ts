import { organizationBody } from "@/lib/schemas/accounts";
import { ownerProcedure } from "@/server/api/trpc";
import { renameOrganization } from "@/server/domain/organizations/rename-organization";

export const renameOrganizationProcedure = ownerProcedure
  .input(organizationBody)
  .mutation(({ ctx, input }) => renameOrganization(ctx.db, ctx.organizationId, input.name));
