import { requestPasswordResetBody } from "@/lib/schemas/accounts";
import { appLinkBase, appLinks } from "@/server/api/trpc/app-links";
import { limitAccountEmail } from "@/server/api/trpc/rate-limits";
import { publicProcedure } from "@/server/api/trpc/procedures";
import { requestPasswordReset } from "@/server/domain/accounts/password-reset";
import { sendPasswordResetEmail } from "@/server/mail/send";
import { logger } from "@/server/observability/logger";

/**
 * Sends a reset link if an account has this address, and answers the same whether or not one does.
 * The answer does not wait for the e-mail, so its timing does not tell either. Never batched, and
 * limited per client IP and per address (counted whether or not an account has it).
 */
export const requestPasswordResetProcedure = publicProcedure
  .meta({ batch: false })
  .input(requestPasswordResetBody)
  .mutation(async ({ ctx, input }) => {
    await limitAccountEmail(ctx, input.email);
    const base = appLinkBase(ctx.config, ctx.headers);
    const issued = await requestPasswordReset(ctx.db, input.email);
    if (issued) {
      void sendPasswordResetEmail({ to: issued.to, link: appLinks.resetPassword(base, issued.token), expiresAt: issued.expiresAt }, ctx.config).catch(
        (error: unknown) => logger().error({ err: error }, "password reset e-mail failed"),
      );
    }
    return { message: "If an account uses this address, we sent it a link to reset the password. The link works for one hour." };
  });
