import type { ApiKeyRole, MemberRole } from "@/generated/prisma/enums";
import { grantableKeyRoles } from "@/lib/permissions";
import { DomainError } from "@/server/domain/errors";
import { hashToken, newToken } from "@/server/domain/tokens";
import type { Prisma } from "@/generated/prisma/client";
import { API_KEY_PREFIX, API_KEY_WARNING, toApiKeyDto } from "./to-api-key-dto";

/**
 * A new key, stored as a hash; the full key is in this result only. A member's key never gets more
 * than the member's own role allows, read here under a share lock on their membership row, not from
 * the request: a removal or role change locks that row first (lockMembership), so a key is created
 * either before it (and is revoked or lowered by it) or after it, by a member at the new role or no
 * member at all. `creator` null: made outside the dashboard (the admin command's bootstrap key,
 * tests), with no one whose removal revokes it.
 */
export async function createApiKey(
  db: Prisma.TransactionClient,
  organizationId: string,
  input: { name: string; expiresAt?: Date | null; role: ApiKeyRole },
  creator: { userId: string; email: string } | null,
) {
  if (creator) {
    const [membership] = await db.$queryRaw<{ role: MemberRole }[]>`
      SELECT "role"::text AS "role" FROM "Membership" WHERE "userId" = ${creator.userId} AND "organizationId" = ${organizationId} FOR SHARE`;
    if (!membership) throw new DomainError("forbidden", "You are no longer a member of this organisation.");
    const grantable = grantableKeyRoles(membership.role);
    if (!grantable.includes(input.role)) {
      throw new DomainError("forbidden", `A ${membership.role} cannot create a key with the ${input.role} role.`, [
        { field: "role", rule: "grantable", message: `must be one of: ${grantable.join(", ") || "none"}` },
      ]);
    }
  }
  const key = newToken(API_KEY_PREFIX);
  const record = await db.apiKey.create({
    data: {
      organizationId,
      name: input.name,
      keyHash: hashToken(key),
      keyPrefix: key.slice(0, API_KEY_PREFIX.length + 4),
      expiresAt: input.expiresAt ?? null,
      role: input.role,
      createdById: creator?.userId ?? null,
    },
  });
  return { ...toApiKeyDto({ ...record, createdBy: creator }, key), warning: API_KEY_WARNING };
}
