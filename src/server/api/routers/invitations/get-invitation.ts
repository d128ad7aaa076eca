import { linkTokenInput } from "@/lib/schemas/accounts";
import { publicProcedure } from "@/server/api/trpc/procedures";
import { limitAccountLink } from "@/server/api/trpc/rate-limits";
import { findInvitation } from "@/server/domain/invitations/find-invitation";
import { notFound } from "@/server/domain/errors";

/**
 * What the link holder may see before accepting: organisation, role, inviter, address, state. Never
 * batched, and limited per client IP (the token is the only credential).
 */
export const getInvitationProcedure = publicProcedure
  .meta({ batch: false })
  .input(linkTokenInput)
  .query(async ({ ctx, input }) => {
    await limitAccountLink(ctx);
    const invitation = await findInvitation(ctx.db, input.token);
    if (!invitation) throw notFound("Invitation");
    return invitation;
  });
