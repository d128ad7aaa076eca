import { signUpBody } from "@/lib/schemas/accounts";
import { publicProcedure } from "@/server/api/trpc";
import { signUp } from "@/server/domain/accounts/sign-up";
import { sendVerification } from "./send-verification";

/**
 * Creates the account and its organisation, and e-mails a link that verifies the address. The account
 * works before it is verified, except for accepting invitations; a failed e-mail does not undo the
 * sign-up (the dashboard offers to send the link again).
 */
export const signUpProcedure = publicProcedure.input(signUpBody).mutation(async ({ ctx, input }) => {
  const { user, organization } = await signUp(ctx.db, input);
  const verificationSent = await sendVerification(ctx, user.id).catch((error: unknown) => {
    console.error(`[accounts] verification e-mail to a new account failed: ${(error as Error).message}`);
    return false;
  });
  return { userId: user.id, organizationId: organization.id, verificationSent };
});
