import { linkTokenInput } from "@/lib/schemas/accounts";
import { publicProcedure } from "@/server/api/trpc/procedures";
import { findInvitation } from "@/server/domain/invitations/find-invitation";
import { notFound } from "@/server/domain/errors";

/** What the link holder may see before accepting: organisation, role, inviter, address, state. */
export const getInvitationProcedure = publicProcedure.input(linkTokenInput).query(async ({ ctx, input }) => {
  const invitation = await findInvitation(ctx.db, input.token);
  if (!invitation) throw notFound("Invitation");
  return invitation;
});
