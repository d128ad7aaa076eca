import { sessionProcedure } from "@/server/api/trpc/procedures";
import { sendVerification } from "./send-verification";

/** Sends a new verification link (the earlier one stops working); `sent` false when already verified. */
export const resendVerificationProcedure = sessionProcedure.mutation(async ({ ctx }) => ({ sent: await sendVerification(ctx, ctx.actor.userId) }));
