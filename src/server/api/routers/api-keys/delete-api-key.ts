import { z } from "zod";
import { idInput } from "@/lib/schemas/common";
import { memberProcedure } from "@/server/api/trpc";
import { deleteApiKey } from "@/server/domain/api-keys/delete-api-key";

export const deleteApiKeyProcedure = memberProcedure
  .input(z.object({ id: idInput() }))
  .mutation(({ ctx, input }) => deleteApiKey(ctx.db, ctx.organizationId, input.id));
