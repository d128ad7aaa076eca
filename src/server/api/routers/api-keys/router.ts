import { z } from "zod";
import { requiredText } from "@/server/api/schemas";
import { memberProcedure, router } from "@/server/api/trpc";
import { createApiKey, deleteApiKey, listApiKeys } from "@/server/domain/api-keys/api-keys";

// Managed from the dashboard only: an API key cannot mint or revoke keys.
export const apiKeysRouter = router({
  list: memberProcedure.query(({ ctx }) => listApiKeys(ctx.db, ctx.organizationId)),
  create: memberProcedure
    .meta({ secret: true })
    .input(
      z.object({
        name: requiredText(100),
        expiresAt: z.iso
          .datetime({ offset: true })
          .nullish()
          .refine((v) => !v || new Date(v) > new Date(), { message: "must be in the future" }),
      }),
    )
    .mutation(({ ctx, input }) =>
      createApiKey(ctx.db, ctx.organizationId, { name: input.name, expiresAt: input.expiresAt ? new Date(input.expiresAt) : null }),
    ),
  delete: memberProcedure
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ ctx, input }) => deleteApiKey(ctx.db, ctx.organizationId, input.id)),
});
