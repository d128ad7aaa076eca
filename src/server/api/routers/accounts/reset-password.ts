import { resetPasswordBody } from "@/lib/schemas/accounts";
import { requestClient } from "@/server/api/trpc/audit-actor";
import { publicProcedure } from "@/server/api/trpc/procedures";
import { resetPassword } from "@/server/domain/accounts/password-reset";

/** A new password from the e-mailed link (single use, one hour); every session of the account ends. */
export const resetPasswordProcedure = publicProcedure.input(resetPasswordBody).mutation(async ({ ctx, input }) => {
  const { email } = await resetPassword(ctx.db, { token: input.token, newPassword: input.newPassword, ...requestClient(ctx) });
  return { email };
});
