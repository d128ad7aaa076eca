import { sessionProcedure } from "@/server/api/trpc/procedures";
import { limitAccountEmail } from "@/server/api/trpc/rate-limits";
import { sendVerification } from "./send-verification";

/**
 * Sends a new verification link (the earlier one stops working); `sent` false when already verified.
 * A fresh account can call it, so it is limited like a signed-out e-mail: per client IP and per address.
 */
export const resendVerificationProcedure = sessionProcedure.meta({ batch: false }).mutation(async ({ ctx }) => {
  await limitAccountEmail(ctx, ctx.actor.email);
  return { sent: await sendVerification(ctx, ctx.actor.userId) };
});
