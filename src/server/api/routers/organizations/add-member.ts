import { addMemberBody } from "@/lib/schemas/accounts";
import { ownerProcedure } from "@/server/api/trpc";
import { addMember } from "@/server/domain/organizations/add-member";

export const addMemberProcedure = ownerProcedure
  .input(addMemberBody)
  .mutation(({ ctx, input }) => addMember(ctx.db, ctx.organizationId, input.email, input.role));
