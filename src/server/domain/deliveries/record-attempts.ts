import type { Db } from "@/server/db/client";
import type { AttemptResult } from "./send-attempt";
import { prepared } from "@/server/db/prepared-statements";

export const LOST_ATTEMPT_ERROR = "The worker sending this attempt stopped before recording it; whether the receiver got it is unknown.";

const STATUS = { succeeded: "Succeeded", dead: "Failed", retry: "Pending" } as const;

/**
 * Writes the log entries and the deliveries' new state for finished attempts, in one statement
 * however many there are (the worker records a batch at once). A delivery's state is only written if
 * nobody claimed a later attempt meanwhile (our lease could have expired); the entry is written
 * regardless, since the request did go out, unless the delivery was deleted in flight.
 *
 * Every attempt is logged together with its outcome, so if attempt n > 1 finds no entry for n - 1,
 * that attempt's worker died mid-attempt: it still counted toward the limit, and its entry is written
 * here so support sees every attempt (a no-op when the entry exists).
 */
export async function recordAttempts(db: Db, results: readonly AttemptResult[]): Promise<void> {
  if (!results.length) return;
  const now = new Date();
  const column = <T>(value: (result: AttemptResult) => T) => results.map(value);
  // One array per column, so that a batch of any size is the same statement (parsed once per
  // connection), where a VALUES list of each length was a statement of its own.
  await prepared(db)`
    WITH result AS (
      SELECT * FROM unnest(${column((r) => r.attempt.id)}::text[], ${column((r) => r.attempt.projectId)}::text[],
        ${column((r) => r.attempt.webhookId)}::text[], ${column((r) => r.attempt.eventName)}::text[],
        ${column((r) => r.attempt.attemptNumber)}::int[], ${column((r) => STATUS[r.next.outcome])}::text[],
        ${column((r) => (r.next.outcome === "retry" ? r.next.nextAttemptAt.toISOString() : null))}::timestamp(3)[],
        ${column((r) => r.log.httpStatus)}::int[], ${column((r) => r.log.responseTimeMs)}::int[],
        ${column((r) => r.log.error)}::text[], ${column((r) => r.log.responseExcerpt)}::text[])
        AS r("id", "projectId", "webhookId", "eventName", "attemptNumber", "status", "nextAttemptAt", "httpStatus", "responseTimeMs", "error", "responseExcerpt")
    ), moved AS (
      UPDATE "Delivery" d SET "status" = r."status"::"DeliveryStatus", "lastError" = r."error", "leasedUntil" = NULL, "leasedBy" = NULL,
        "nextAttemptAt" = COALESCE(r."nextAttemptAt", d."nextAttemptAt"), "updatedAt" = ${now}
      FROM result r WHERE d."id" = r."id" AND d."attemptCount" = r."attemptNumber"
    ), entries AS (
      SELECT r."id" AS "deliveryId", r."projectId", r."webhookId", r."eventName", r."attemptNumber",
        r."httpStatus", r."responseTimeMs", r."status" = 'Succeeded' AS "success", r."error", r."responseExcerpt"
      FROM result r
      UNION ALL
      SELECT r."id", r."projectId", r."webhookId", r."eventName", r."attemptNumber" - 1, NULL, 0, false, ${LOST_ATTEMPT_ERROR}, NULL
      FROM result r WHERE r."attemptNumber" > 1
    )
    INSERT INTO "DeliveryAttempt" ("id", "projectId", "webhookId", "deliveryId", "attemptNumber", "eventType",
      "httpStatus", "responseTimeMs", "success", "error", "responseExcerpt", "createdAt")
    SELECT gen_random_uuid()::text, e."projectId", e."webhookId", e."deliveryId", e."attemptNumber", e."eventName",
      e."httpStatus", e."responseTimeMs", e."success", e."error", e."responseExcerpt", ${now}
    FROM entries e WHERE EXISTS (SELECT FROM "Delivery" d WHERE d."id" = e."deliveryId")
    ON CONFLICT ("deliveryId", "attemptNumber") DO NOTHING`;
}
