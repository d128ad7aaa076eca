import { signUpBody } from "@/lib/schemas/accounts";
import { publicProcedure } from "@/server/api/trpc";
import { signUp } from "@/server/domain/accounts/sign-up";

export const signUpProcedure = publicProcedure.input(signUpBody).mutation(async ({ ctx, input }) => {
  const { user, organization } = await signUp(ctx.db, input);
  return { userId: user.id, organizationId: organization.id };
});
