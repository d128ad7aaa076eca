import { z } from "zod";
import { requiredText } from "@/server/api/schemas";
import { memberProcedure, ownerProcedure, publicProcedure, router, sessionProcedure } from "@/server/api/trpc";
import { passwordNotEmail, passwordSchema } from "@/server/domain/accounts/password-policy";
import { signUp } from "@/server/domain/accounts/sign-up";
import { createOrganization } from "@/server/domain/organizations/create-organization";
import { addMember, listMembers, listMyOrganizations, removeMember } from "@/server/domain/organizations/memberships";

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email({ error: "must be an e-mail address" }).max(254));

export const accountRouter = router({
  signUp: publicProcedure
    .input(
      z
        .object({ email: emailSchema, password: passwordSchema, name: z.string().trim().max(100).nullish(), organizationName: requiredText(100) })
        .superRefine(passwordNotEmail),
    )
    .mutation(async ({ ctx, input }) => {
      const { user, organization } = await signUp(ctx.db, input);
      return { userId: user.id, organizationId: organization.id };
    }),
  me: sessionProcedure.query(async ({ ctx }) => ({
    userId: ctx.actor.userId,
    activeOrganizationId: ctx.actor.organizationId,
    role: ctx.actor.role,
    organizations: await listMyOrganizations(ctx.db, ctx.actor.userId),
  })),
  createOrganization: sessionProcedure
    .input(z.object({ name: requiredText(100) }))
    .mutation(async ({ ctx, input }) => {
      const organization = await ctx.db.$transaction((tx) => createOrganization(tx, ctx.actor.userId, input.name));
      return { id: organization.id, name: organization.name };
    }),
  renameOrganization: ownerProcedure
    .input(z.object({ name: requiredText(100) }))
    .mutation(async ({ ctx, input }) => {
      const organization = await ctx.db.organization.update({ where: { id: ctx.organizationId }, data: { name: input.name } });
      return { id: organization.id, name: organization.name };
    }),
  members: memberProcedure.query(({ ctx }) => listMembers(ctx.db, ctx.organizationId)),
  addMember: ownerProcedure
    .input(z.object({ email: emailSchema, role: z.enum(["owner", "member"]).default("member") }))
    .mutation(({ ctx, input }) => addMember(ctx.db, ctx.organizationId, input.email, input.role)),
  removeMember: ownerProcedure
    .input(z.object({ userId: z.string().min(1) }))
    .mutation(({ ctx, input }) => removeMember(ctx.db, ctx.organizationId, input.userId)),
});
