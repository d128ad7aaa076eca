import { linkTokenInput } from "@/lib/schemas/accounts";
import { requestClient } from "@/server/api/trpc/audit-actor";
import { sessionProcedure } from "@/server/api/trpc/procedures";
import { limitAccountLink } from "@/server/api/trpc/rate-limits";
import { acceptInvitation } from "@/server/domain/invitations/accept-invitation";

/**
 * Joins the organisation as the signed-in account, if its verified e-mail is the invited one. Any new
 * account can call it, so it is limited like the other token-bearing calls: never batched, per client IP.
 */
export const acceptInvitationProcedure = sessionProcedure
  .meta({ batch: false })
  .input(linkTokenInput)
  .mutation(async ({ ctx, input }) => {
    await limitAccountLink(ctx);
    return acceptInvitation(ctx.db, { token: input.token, userId: ctx.actor.userId, ...requestClient(ctx) });
  });
