import { signUpBody } from "@/lib/schemas/accounts";
import { limitSignUp } from "@/server/api/rate-limits";
import { publicProcedure } from "@/server/api/trpc";
import { signUp } from "@/server/domain/accounts/sign-up";

// Never batched and rate-limited per IP and e-mail address: each sign-up runs scrypt.
export const signUpProcedure = publicProcedure
  .meta({ batch: false })
  .input(signUpBody)
  .mutation(async ({ ctx, input }) => {
    await limitSignUp(ctx, input.email);
    const { user, organization } = await signUp(ctx.db, input);
    return { userId: user.id, organizationId: organization.id };
  });
