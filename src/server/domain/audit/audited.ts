import type { Db } from "@/server/db/client";
import type { Prisma } from "@/generated/prisma/client";
import { recordAudit, type AuditActor, type AuditEvent } from "./record-audit";

/**
 * Runs an organisation's action and writes its audit entry in the same transaction: the entry exists
 * exactly when the action happened. `describe` reads the action's result (the id of what it created).
 */
export function audited<T>(
  db: Db,
  organizationId: string,
  actor: AuditActor,
  work: (tx: Prisma.TransactionClient) => Promise<T>,
  describe: (result: T) => AuditEvent | AuditEvent[],
): Promise<T> {
  return db.$transaction(async (tx) => {
    const result = await work(tx);
    for (const event of [describe(result)].flat()) await recordAudit(tx, organizationId, actor, event);
    return result;
  });
}
