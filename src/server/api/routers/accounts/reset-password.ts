import { resetPasswordBody } from "@/lib/schemas/accounts";
import { requestClient } from "@/server/api/trpc/audit-actor";
import { limitAccountLink } from "@/server/api/trpc/rate-limits";
import { publicProcedure } from "@/server/api/trpc/procedures";
import { resetPassword } from "@/server/domain/accounts/password-reset";

/**
 * A new password from the e-mailed link (single use, one hour); every session of the account ends.
 * Never batched, and limited per client IP; the token is checked before the new password is hashed.
 */
export const resetPasswordProcedure = publicProcedure
  .meta({ batch: false })
  .input(resetPasswordBody)
  .mutation(async ({ ctx, input }) => {
    await limitAccountLink(ctx);
    const { email } = await resetPassword(ctx.db, { token: input.token, newPassword: input.newPassword, ...requestClient(ctx) });
    return { email };
  });
