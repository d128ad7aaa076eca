import { linkTokenInput } from "@/lib/schemas/accounts";
import { requestClient } from "@/server/api/trpc/audit-actor";
import { sessionProcedure } from "@/server/api/trpc/procedures";
import { acceptInvitation } from "@/server/domain/invitations/accept-invitation";

/** Joins the organisation as the signed-in account, if its verified e-mail is the invited one. */
export const acceptInvitationProcedure = sessionProcedure
  .input(linkTokenInput)
  .mutation(({ ctx, input }) => acceptInvitation(ctx.db, { token: input.token, userId: ctx.actor.userId, ...requestClient(ctx) }));
