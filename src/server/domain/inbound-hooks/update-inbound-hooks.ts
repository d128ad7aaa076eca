import type { Prisma } from "@/generated/prisma/client";
import type { UpdateInboundHooks } from "@/lib/schemas/inbound-hooks";
import { encryptSecret } from "@/server/domain/webhooks/webhook-secret";
import { loadInboundHook } from "./load-inbound-hook";

/** Sets what the call sends (a secret encrypted, `null` removing it) and keeps the rest. */
export async function updateInboundHooks(db: Prisma.TransactionClient, organizationId: string, projectId: string, input: UpdateInboundHooks) {
  const { project } = await loadInboundHook(db, organizationId, projectId);
  const secret = (value: string | null | undefined) => (value === undefined ? undefined : value === null ? null : encryptSecret(value));
  const hook = await db.inboundHook.update({
    where: { projectId },
    data: {
      stripeSecretEncrypted: secret(input.stripeSigningSecret),
      revenueCatAuthEncrypted: secret(input.revenueCatAuthorization),
      ...(input.eventNames === undefined ? {} : { eventNames: input.eventNames }),
    },
  });
  return { project, hook };
}
