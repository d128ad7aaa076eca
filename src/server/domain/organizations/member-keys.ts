import type { Prisma } from "@/generated/prisma/client";

/** The API keys a member created in the organisation: what removing them revokes. */
export async function memberKeys(db: Prisma.TransactionClient, organizationId: string, userId: string) {
  const keys = await db.apiKey.findMany({
    where: { organizationId, createdById: userId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, keyPrefix: true, role: true, createdAt: true, lastUsedAt: true },
  });
  return keys.map((k) => ({
    id: k.id,
    name: k.name,
    keyPrefix: k.keyPrefix,
    role: k.role,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  }));
}
