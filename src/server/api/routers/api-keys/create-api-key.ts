import { createApiKeyBody } from "@/lib/schemas/accounts";
import { memberProcedure } from "@/server/api/trpc";
import { createApiKey } from "@/server/domain/api-keys/create-api-key";

export const createApiKeyProcedure = memberProcedure
  .meta({ secret: true })
  .input(createApiKeyBody)
  .mutation(({ ctx, input }) =>
    createApiKey(ctx.db, ctx.organizationId, { name: input.name, expiresAt: input.expiresAt ? new Date(input.expiresAt) : null }),
  );
