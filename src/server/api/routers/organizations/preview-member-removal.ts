import { z } from "zod";
import { idInput } from "@/lib/schemas/common";
import { memberProcedure } from "@/server/api/trpc/procedures";
import { previewMemberRemoval } from "@/server/domain/organizations/preview-member-removal";

/** Step one of removing a member: who, and the API keys of theirs the removal revokes. */
export const previewMemberRemovalProcedure = memberProcedure
  .meta({ permission: "members.remove" })
  .input(z.object({ userId: idInput() }))
  .query(({ ctx, input }) => previewMemberRemoval(ctx.db, ctx.organizationId, input.userId));
