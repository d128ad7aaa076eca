import { memberProcedure } from "@/server/api/trpc/procedures";
import { listPendingInvitations } from "@/server/domain/invitations/list-invitations";

/** Pending invitations (not accepted, revoked or expired), newest first. */
export const listInvitationsProcedure = memberProcedure
  .meta({ permission: "members.invite" })
  .query(({ ctx }) => listPendingInvitations(ctx.db, ctx.organizationId));
