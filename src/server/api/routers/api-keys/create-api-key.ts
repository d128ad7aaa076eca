import { createApiKeyBody } from "@/lib/schemas/accounts";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { memberProcedure } from "@/server/api/trpc/procedures";
import { createApiKey } from "@/server/domain/api-keys/create-api-key";
import { audited } from "@/server/domain/audit/audited";

/**
 * A key with a role up to the creator's own (read in the transaction, not from the request: see
 * createApiKey), recorded as theirs (removing them revokes it).
 */
export const createApiKeyProcedure = memberProcedure
  .meta({ secret: true, permission: "apiKeys.create" })
  .input(createApiKeyBody)
  .mutation(({ ctx, input }) =>
    audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) =>
        createApiKey(
          tx,
          ctx.organizationId,
          { name: input.name, role: input.role, expiresAt: input.expiresAt ? new Date(input.expiresAt) : null },
          { userId: ctx.actor.userId, email: ctx.actor.email },
        ),
      (k) => ({ action: "api_key.create", target: { type: "apiKey", id: k.id, label: k.name }, details: { role: k.role, expiresAt: k.expiresAt } }),
    ),
  );
