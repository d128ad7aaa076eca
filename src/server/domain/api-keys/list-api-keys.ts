import type { Db } from "@/server/db/client";
import { toApiKeyDto } from "./to-api-key-dto";

/** The spec's APIKeyListResponseDto: the organisation's ids and its keys, newest first, masked. */
export async function listApiKeys(db: Db, organizationId: string) {
  const organization = await db.organization.findUniqueOrThrow({
    where: { id: organizationId },
    include: { apiKeys: { orderBy: { createdAt: "desc" }, include: { createdBy: { select: { email: true } } } } },
  });
  return {
    clientId: organization.clientId,
    clientUniqueId: organization.id,
    keys: organization.apiKeys.map((k) => toApiKeyDto(k)),
  };
}
