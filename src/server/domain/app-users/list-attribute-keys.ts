import type { Db } from "@/server/db/client";
import { planned } from "@/server/db/prepared-statements";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

/** Users whose keys are read: the newest this many. */
export const ATTRIBUTE_KEYS_SAMPLE_USERS = 1_000;
/** Keys offered at most (A to Z). */
export const ATTRIBUTE_KEYS_MAX = 200;

/**
 * The attribute keys the dashboard offers as columns and filters: the distinct keys of the project's
 * newest ATTRIBUTE_KEYS_SAMPLE_USERS users, A to Z. A sample, not every user: the distinct keys of a
 * million users means reading a million rows, while the newest thousand are one short walk of the
 * (projectId, createdAt) index whatever the project's size, and carry the keys the client sends now.
 * A key only older users have is not offered, but can still be typed.
 */
export async function listAttributeKeys(db: Db, organizationId: string, projectId: string): Promise<string[]> {
  await getOwnedProject(db, organizationId, projectId);
  const rows = await planned<{ key: string }>(db)`
    SELECT DISTINCT k."key" FROM (
      SELECT u."attributes" FROM "AppUser" u WHERE u."projectId" = ${projectId}
      ORDER BY u."createdAt" DESC LIMIT ${ATTRIBUTE_KEYS_SAMPLE_USERS}
    ) sample CROSS JOIN LATERAL jsonb_object_keys(
      CASE WHEN jsonb_typeof(sample."attributes") = 'object' THEN sample."attributes" ELSE '{}'::jsonb END
    ) AS k("key")
    ORDER BY k."key" LIMIT ${ATTRIBUTE_KEYS_MAX}`;
  return rows.map((r) => r.key);
}
