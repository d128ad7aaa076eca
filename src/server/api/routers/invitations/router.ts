import { router } from "@/server/api/trpc/procedures";
import { acceptInvitationProcedure } from "./accept-invitation";
import { createInvitationProcedure } from "./create-invitation";
import { getInvitationProcedure } from "./get-invitation";
import { listInvitationsProcedure } from "./list-invitations";
import { revokeInvitationProcedure } from "./revoke-invitation";

// Dashboard only.
export const invitationsRouter = router({
  list: listInvitationsProcedure,
  create: createInvitationProcedure,
  revoke: revokeInvitationProcedure,
  get: getInvitationProcedure,
  accept: acceptInvitationProcedure,
});
