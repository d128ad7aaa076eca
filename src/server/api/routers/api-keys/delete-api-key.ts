import { z } from "zod";
import { can } from "@/lib/permissions";
import { idInput } from "@/lib/schemas/common";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { memberProcedure } from "@/server/api/trpc/procedures";
import { deleteApiKey } from "@/server/domain/api-keys/delete-api-key";
import { audited } from "@/server/domain/audit/audited";

/** Deletes a key: any key with `apiKeys.deleteAny` (owners), else only one the caller created. */
export const deleteApiKeyProcedure = memberProcedure
  .meta({ permission: "apiKeys.deleteOwn", changesCredentials: true })
  .input(z.object({ id: idInput() }))
  .mutation(async ({ ctx, input }) => {
    const onlyCreatedBy = can(ctx.role, "apiKeys.deleteAny") ? undefined : ctx.actor.userId;
    const { message, deletedKeyId, deletedAt } = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => deleteApiKey(tx, ctx.organizationId, input.id, onlyCreatedBy),
      (r) => ({ action: "api_key.delete", target: { type: "apiKey", id: r.deletedKeyId, label: r.name } }),
    );
    return { message, deletedKeyId, deletedAt };
  });
