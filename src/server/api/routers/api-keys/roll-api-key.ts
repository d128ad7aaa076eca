import { z } from "zod";
import { can } from "@/lib/permissions";
import { idInput } from "@/lib/schemas/common";
import { overlapHoursSchema } from "@/lib/schemas/rotation";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { memberProcedure } from "@/server/api/trpc/procedures";
import { rollApiKey } from "@/server/domain/api-keys/roll-api-key";
import { audited } from "@/server/domain/audit/audited";

/** A new key in place of one, the old one valid for the overlap chosen (0: revoked now). */
export const rollApiKeyProcedure = memberProcedure
  .meta({ secret: true, permission: "apiKeys.deleteOwn", changesCredentials: true })
  .input(z.object({ id: idInput(), overlapHours: overlapHoursSchema }))
  .mutation(({ ctx, input }) =>
    audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) =>
        rollApiKey(tx, ctx.organizationId, input.id, input.overlapHours, {
          userId: ctx.actor.userId,
          email: ctx.actor.email,
          onlyOwnKeys: !can(ctx.role, "apiKeys.deleteAny"),
        }),
      (k) => ({
        action: "api_key.roll",
        target: { type: "apiKey", id: k.rolledKeyId, label: k.name },
        details: { newKeyId: k.id, role: k.role, overlapHours: input.overlapHours, previousKeyExpiresAt: k.previousKeyExpiresAt },
      }),
    ),
  );
