import { router } from "@/server/api/trpc";
import { addMemberProcedure } from "./add-member";
import { createOrganizationProcedure } from "./create-organization";
import { listMembersProcedure } from "./list-members";
import { removeMemberProcedure } from "./remove-member";
import { renameOrganizationProcedure } from "./rename-organization";

// Dashboard only: organisations have no REST surface.
export const organizationsRouter = router({
  create: createOrganizationProcedure,
  rename: renameOrganizationProcedure,
  members: listMembersProcedure,
  addMember: addMemberProcedure,
  removeMember: removeMemberProcedure,
});
