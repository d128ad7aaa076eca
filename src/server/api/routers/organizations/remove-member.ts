import { z } from "zod";
import { idInput } from "@/lib/schemas/common";
import { ownerProcedure } from "@/server/api/trpc";
import { removeMember } from "@/server/domain/organizations/remove-member";

export const removeMemberProcedure = ownerProcedure
  .input(z.object({ userId: idInput() }))
  .mutation(({ ctx, input }) => removeMember(ctx.db, ctx.organizationId, input.userId));
