import { sessionProcedure } from "@/server/api/trpc";
import { listMyOrganizations } from "@/server/domain/organizations/list-my-organizations";

/** The signed-in user, the organisation they act for, and every organisation they belong to. */
export const getMeProcedure = sessionProcedure.query(async ({ ctx }) => ({
  userId: ctx.actor.userId,
  activeOrganizationId: ctx.actor.organizationId,
  role: ctx.actor.role,
  organizations: await listMyOrganizations(ctx.db, ctx.actor.userId),
}));
