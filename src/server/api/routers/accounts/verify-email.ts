import { linkTokenInput } from "@/lib/schemas/accounts";
import { requestClient } from "@/server/api/trpc/audit-actor";
import { publicProcedure } from "@/server/api/trpc/procedures";
import { limitAccountLink } from "@/server/api/trpc/rate-limits";
import { verifyEmail } from "@/server/domain/accounts/email-verification";

/**
 * Follows the e-mailed verification link (single use); works signed in or not, the token is the proof.
 * Never batched, and limited per client IP.
 */
export const verifyEmailProcedure = publicProcedure
  .meta({ batch: false })
  .input(linkTokenInput)
  .mutation(async ({ ctx, input }) => {
    await limitAccountLink(ctx);
    return verifyEmail(ctx.db, input.token, requestClient(ctx));
  });
