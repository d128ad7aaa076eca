import { signUpBody } from "@/lib/schemas/accounts";
import { limitSignUp } from "@/server/api/trpc/rate-limits";
import { publicProcedure } from "@/server/api/trpc/procedures";
import { signUp } from "@/server/domain/accounts/sign-up";
import { requestClient } from "@/server/api/trpc/audit-actor";
import { sendVerification } from "./send-verification";
import { logger } from "@/server/observability/logger";

/**
 * Creates the account and its organisation (or, with an invitation's token, joins the invited
 * organisation with the address already verified), and e-mails a link that verifies the address. The account
 * works before it is verified, except for accepting invitations; a failed e-mail does not undo the
 * sign-up (the dashboard offers to send the link again). Never batched and rate-limited per IP and
 * e-mail address: each sign-up runs scrypt.
 */
export const signUpProcedure = publicProcedure
  .meta({ batch: false })
  .input(signUpBody)
  .mutation(async ({ ctx, input }) => {
    await limitSignUp(ctx, input.email);
    const { user, organization, joined } = await signUp(ctx.db, input, requestClient(ctx));
    // Joining by invitation proved the address (the link came to it): nothing to verify.
    const verificationSent = joined
      ? false
      : await sendVerification(ctx, user.id).catch((error: unknown) => {
          logger().error({ err: error }, "verification e-mail to a new account failed");
          return false;
        });
    return { userId: user.id, organizationId: organization.id, verificationSent };
  });
