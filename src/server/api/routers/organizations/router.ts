import { router } from "@/server/api/trpc/procedures";
import { changeMemberRoleProcedure } from "./change-member-role";
import { createOrganizationProcedure } from "./create-organization";
import { listMembersProcedure } from "./list-members";
import { previewMemberRemovalProcedure } from "./preview-member-removal";
import { removeMemberProcedure } from "./remove-member";
import { renameOrganizationProcedure } from "./rename-organization";

// Dashboard only: organisations have no REST surface. Invitations: routers/invitations.
export const organizationsRouter = router({
  create: createOrganizationProcedure,
  rename: renameOrganizationProcedure,
  members: listMembersProcedure,
  removalPreview: previewMemberRemovalProcedure,
  removeMember: removeMemberProcedure,
  changeRole: changeMemberRoleProcedure,
});
