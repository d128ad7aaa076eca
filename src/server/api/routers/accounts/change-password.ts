import { changePasswordBody } from "@/lib/schemas/accounts";
import { requestClient } from "@/server/api/trpc/audit-actor";
import { sessionProcedure } from "@/server/api/trpc/procedures";
import { changePassword } from "@/server/domain/accounts/change-password";

/** A new password (the policy, and not the e-mail), given the current one; every other session ends. */
export const changePasswordProcedure = sessionProcedure.input(changePasswordBody).mutation(({ ctx, input }) =>
  changePassword(ctx.db, {
    userId: ctx.actor.userId,
    sessionId: ctx.actor.sessionId,
    currentPassword: input.currentPassword,
    newPassword: input.newPassword,
    ...requestClient(ctx),
  }),
);
