import type { InboundProvider } from "@/generated/prisma/enums";
import { INBOUND_TOKEN_PREFIX } from "@/lib/schemas/inbound-hooks";
import type { Db } from "@/server/db/client";
import { hashToken } from "@/server/domain/tokens";
import { decryptSecret } from "@/server/domain/webhooks/webhook-secret";
import { eventNamesOf } from "./to-inbound-hooks-dto";

/** A project's hook as a provider's call needs it: the project, the provider's secret in clear, the mapping. */
export type FoundHook = {
  tokenHash: string;
  projectId: string;
  organizationId: string;
  secret: string;
  eventNames: Record<string, string>;
};

/** Longer than any token the service issues: refused before hashing or querying. */
const MAX_TOKEN_LENGTH = 100;

/**
 * The hook a token and provider name, or null when the token is unknown (or was rotated away) or that
 * provider is not configured: both answer as if the hook did not exist. Read on every call, uncached,
 * so a rotation or a removed secret takes effect at once on every instance.
 */
export async function findHookByToken(db: Db, token: string, provider: InboundProvider): Promise<FoundHook | null> {
  if (token.length > MAX_TOKEN_LENGTH || !token.startsWith(INBOUND_TOKEN_PREFIX)) return null;
  const tokenHash = hashToken(token);
  const row = await db.inboundHook.findUnique({
    where: { tokenHash },
    select: { projectId: true, stripeSecretEncrypted: true, revenueCatAuthEncrypted: true, eventNames: true, project: { select: { organizationId: true } } },
  });
  const stored = provider === "stripe" ? row?.stripeSecretEncrypted : row?.revenueCatAuthEncrypted;
  // A secret no configured key can read (the key changed without re-encryption) is as good as none.
  const secret = stored ? decryptSecret(stored) : null;
  if (!row || secret === null) return null;
  return { tokenHash, projectId: row.projectId, organizationId: row.project.organizationId, secret, eventNames: eventNamesOf(row.eventNames) };
}
