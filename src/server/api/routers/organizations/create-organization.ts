import { organizationBody } from "@/lib/schemas/accounts";
import { sessionProcedure } from "@/server/api/trpc/procedures";
import { createOrganization } from "@/server/domain/organizations/create-organization";

export const createOrganizationProcedure = sessionProcedure
  .input(organizationBody)
  .mutation(({ ctx, input }) => createOrganization(ctx.db, ctx.actor.userId, input.name));
