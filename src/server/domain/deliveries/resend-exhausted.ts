import { RECOVERY_WINDOW_DAYS } from "@/lib/schemas/webhooks";
import type { Db } from "@/server/db/client";
import { recordAudit } from "@/server/domain/audit/record-audit";

/** Recovery's pace: its deliveries fall due this far apart, so a receiver just back is not flooded. */
export const RECOVERY_PACE_MS = 100;
const DAY_MS = 24 * 60 * 60_000;

/** The audit log's actor for what the service does by itself. */
export const SERVICE_ACTOR = { type: "service", id: "referloop", label: "Referloop (automatic)" } as const;

/**
 * A webhook's recovery (its `autoRecover`), run when its first success follows failures: every
 * delivery that exhausted its attempts in the last RECOVERY_WINDOW_DAYS days is made due again,
 * RECOVERY_PACE_MS apart in the order they failed, and marked `recoveredAt`, so recovery sends each
 * at most once (a concurrent recovery finds it taken: the condition is checked again on the locked
 * row). The sending itself is the worker's, as for a retry: one attempt more, then exhausted again if
 * it fails. One audit entry per webhook, naming how many were resent. Returns that count.
 */
export async function resendExhausted(db: Db, webhookId: string, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - RECOVERY_WINDOW_DAYS * DAY_MS);
  return db.$transaction(async (tx) => {
    const resent = await tx.$queryRaw<{ id: string; projectId: string }[]>`
      WITH picked AS (
        SELECT d."id", row_number() OVER (ORDER BY d."lastAttemptAt", d."id") - 1 AS "n" FROM "Delivery" d
        WHERE d."webhookId" = ${webhookId} AND d."status" = 'Failed' AND d."failure" = 'exhausted' AND d."recoveredAt" IS NULL
          AND d."lastAttemptAt" >= ${cutoff} AND d."bodiesPurgedAt" IS NULL
      )
      UPDATE "Delivery" d SET "status" = 'Pending', "failure" = NULL, "recoveredAt" = ${now}, "updatedAt" = ${now},
        "nextAttemptAt" = ${now}::timestamp(3) + p."n" * ${`${RECOVERY_PACE_MS} milliseconds`}::interval, "leasedUntil" = NULL, "leasedBy" = NULL
      FROM picked p
      WHERE d."id" = p."id" AND d."status" = 'Failed' AND d."recoveredAt" IS NULL
      RETURNING d."id", d."projectId"`;
    if (!resent.length) return 0;
    const webhook = await tx.webhook.findUniqueOrThrow({ where: { id: webhookId }, select: { name: true, projectId: true, project: { select: { organizationId: true } } } });
    await recordAudit(tx, webhook.project.organizationId, SERVICE_ACTOR, {
      action: "webhook.recover",
      target: { type: "webhook", id: webhookId, label: webhook.name },
      details: { projectId: webhook.projectId, resent: resent.length, windowDays: RECOVERY_WINDOW_DAYS, paceMs: RECOVERY_PACE_MS },
    });
    return resent.length;
  });
}
