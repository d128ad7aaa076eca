import { memberProcedure } from "@/server/api/trpc/procedures";
import { listMembers } from "@/server/domain/organizations/list-members";

export const listMembersProcedure = memberProcedure.meta({ permission: "members.read" }).query(({ ctx }) => listMembers(ctx.db, ctx.organizationId));
