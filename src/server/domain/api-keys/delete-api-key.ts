import type { Prisma } from "@/generated/prisma/client";
import { DomainError, notFound } from "@/server/domain/errors";

/**
 * The spec's APIKeyDeletedDto; the key stops working at once. `onlyCreatedBy`: the caller may delete
 * only keys they created (a member); another's key is refused, not hidden (the list shows it).
 */
export async function deleteApiKey(tx: Prisma.TransactionClient, organizationId: string, id: string, onlyCreatedBy?: string) {
  const key = await tx.apiKey.findFirst({ where: { id, organizationId } });
  if (!key) throw notFound("API key");
  if (onlyCreatedBy && key.createdById !== onlyCreatedBy) throw new DomainError("forbidden", "Only an owner can delete an API key someone else created.");
  await tx.apiKey.delete({ where: { id: key.id } });
  return { message: "The API key was deleted.", deletedKeyId: id, deletedAt: new Date().toISOString(), name: key.name };
}
