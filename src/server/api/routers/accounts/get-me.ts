import { sessionProcedure } from "@/server/api/trpc/procedures";
import { listMyOrganizations } from "@/server/domain/organizations/list-my-organizations";

/** The signed-in user, the organisation they act for (with their role), and every organisation they belong to. */
export const getMeProcedure = sessionProcedure.query(async ({ ctx }) => ({
  userId: ctx.actor.userId,
  email: ctx.actor.email,
  emailVerified: ctx.actor.emailVerified,
  activeOrganizationId: ctx.actor.organizationId,
  role: ctx.actor.role,
  organizations: await listMyOrganizations(ctx.db, ctx.actor.userId),
}));
