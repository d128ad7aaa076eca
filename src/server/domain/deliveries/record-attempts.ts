import { Prisma } from "@/generated/prisma/client";
import { FAILING_DISABLE_DAYS } from "@/lib/schemas/webhooks";
import type { Db } from "@/server/db/client";
import type { AttemptResult } from "./send-attempt";
import { prepared } from "@/server/db/prepared-statements";
import { FAILING_NOTICE_INTERVAL_MS, type WebhookAlert } from "./webhook-health";
import { metrics } from "@/server/observability/metrics";
import { resendExhausted } from "./resend-exhausted";

export const LOST_ATTEMPT_ERROR = "The worker sending this attempt stopped before recording it; whether the receiver got it is unknown.";

const STATUS = { succeeded: "Succeeded", dead: "Failed", retry: "Pending" } as const;
const DAY_MS = 24 * 60 * 60_000;
const RESULT = { succeeded: "succeeded", dead: "failed", retry: "retry" } as const;

/**
 * Writes the log entries and the deliveries' new state for finished attempts, in one statement
 * however many there are (the worker records a batch at once). A delivery's state is only written if
 * nobody claimed a later attempt meanwhile (our lease could have expired); the entry is written
 * regardless, since the request did go out, unless the delivery was deleted in flight.
 *
 * Every attempt is logged together with its outcome, so if attempt n > 1 finds no entry for n - 1,
 * that attempt's worker died mid-attempt: it still counted toward the limit, and its entry is written
 * here so support sees every attempt (a no-op when the entry exists).
 *
 * The same statement keeps each webhook's health (see healthUpdate) and returns what its owners are to
 * be told. `now` is the time of the entries and of that health: a test moves it days ahead.
 */
export async function recordAttempts(db: Db, results: readonly AttemptResult[], now: Date = new Date()): Promise<WebhookAlert[]> {
  if (!results.length) return [];
  const column = <T>(value: (result: AttemptResult) => T) => results.map(value);
  // One array per column, so that a batch of any size is the same statement (parsed once per
  // connection), where a VALUES list of each length was a statement of its own. The arrays are read
  // through a fenced subquery (OFFSET 0) so that unnest's row estimate is its default whatever the
  // batch: from the arrays' own lengths, each batch's plan was cheaper than the generic one and
  // PostgreSQL planned the statement again at every call (pg_stat_statements: 1.0 plans per call).
  const rows = await prepared<{ webhookId: string; disabledNow: boolean; notifiedNow: boolean; recoverNow: boolean; disabledReason: string | null }>(db)`
    WITH result AS (
      SELECT r.* FROM (SELECT ${column((r) => r.attempt.id)}::text[] AS "id", ${column((r) => r.attempt.projectId)}::text[] AS "projectId",
        ${column((r) => r.attempt.webhookId)}::text[] AS "webhookId", ${column((r) => r.attempt.eventName)}::text[] AS "eventName",
        ${column((r) => r.attempt.attemptNumber)}::int[] AS "attemptNumber", ${column((r) => STATUS[r.next.outcome])}::text[] AS "status",
        ${column((r) => (r.next.outcome === "retry" ? r.next.nextAttemptAt.toISOString() : null))}::timestamp(3)[] AS "nextAttemptAt",
        ${column((r) => (r.next.outcome === "dead" ? r.next.failure : null))}::text[] AS "failure",
        ${column((r) => r.log.httpStatus)}::int[] AS "httpStatus", ${column((r) => r.log.responseTimeMs)}::int[] AS "responseTimeMs",
        ${column((r) => r.log.error)}::text[] AS "error", ${column((r) => r.log.responseExcerpt)}::text[] AS "responseExcerpt",
        ${column((r) => r.log.request?.url ?? null)}::text[] AS "requestUrl", ${column((r) => r.log.request?.timestampSeconds ?? null)}::int[] AS "requestTimestamp",
        ${column((r) => r.log.request?.signature ?? null)}::text[] AS "requestSignature" OFFSET 0) a,
      unnest(a."id", a."projectId", a."webhookId", a."eventName", a."attemptNumber", a."status", a."nextAttemptAt", a."failure",
        a."httpStatus", a."responseTimeMs", a."error", a."responseExcerpt", a."requestUrl", a."requestTimestamp", a."requestSignature")
        WITH ORDINALITY AS r("id", "projectId", "webhookId", "eventName", "attemptNumber", "status", "nextAttemptAt", "failure",
          "httpStatus", "responseTimeMs", "error", "responseExcerpt", "requestUrl", "requestTimestamp", "requestSignature", "n")
    ), moved AS (
      UPDATE "Delivery" d SET "status" = r."status"::"DeliveryStatus", "lastError" = r."error", "leasedUntil" = NULL, "leasedBy" = NULL,
        "nextAttemptAt" = COALESCE(r."nextAttemptAt", d."nextAttemptAt"), "lastAttemptAt" = ${now}, "lastHttpStatus" = r."httpStatus",
        "failure" = r."failure", "updatedAt" = ${now}
      FROM result r WHERE d."id" = r."id" AND d."attemptCount" = r."attemptNumber"
    ), entries AS (
      SELECT r."id" AS "deliveryId", r."projectId", r."webhookId", r."eventName", r."attemptNumber",
        r."httpStatus", r."responseTimeMs", r."status" = 'Succeeded' AS "success", r."error", r."responseExcerpt",
        r."requestUrl", r."requestTimestamp", r."requestSignature"
      FROM result r
      UNION ALL
      SELECT r."id", r."projectId", r."webhookId", r."eventName", r."attemptNumber" - 1, NULL, 0, false, ${LOST_ATTEMPT_ERROR}, NULL, NULL, NULL, NULL
      FROM result r WHERE r."attemptNumber" > 1
    ), logged AS (
      INSERT INTO "DeliveryAttempt" ("id", "projectId", "webhookId", "deliveryId", "attemptNumber", "eventType",
        "httpStatus", "responseTimeMs", "success", "error", "responseExcerpt", "requestUrl", "requestTimestamp", "requestSignature", "createdAt")
      SELECT gen_random_uuid()::text, e."projectId", e."webhookId", e."deliveryId", e."attemptNumber", e."eventName",
        e."httpStatus", e."responseTimeMs", e."success", e."error", e."responseExcerpt", e."requestUrl", e."requestTimestamp", e."requestSignature", ${now}
      FROM entries e WHERE EXISTS (SELECT FROM "Delivery" d WHERE d."id" = e."deliveryId")
      ON CONFLICT ("deliveryId", "attemptNumber") DO NOTHING
    ), health AS (
      SELECT "webhookId", COALESCE(bool_or("httpStatus" = 410), false) AS "gone", bool_or("status" = 'Succeeded') AS "anySucceeded",
        (array_agg("status" = 'Succeeded' ORDER BY "n" DESC))[1] AS "lastSucceeded"
      FROM result GROUP BY "webhookId"
    ), ${healthUpdate(now)}
    SELECT "webhookId", "disabledNow", "notifiedNow", "recoverNow", "disabledReason" FROM webhooks WHERE "disabledNow" OR "notifiedNow" OR "recoverNow"`;
  for (const r of results) metrics.deliveryAttempts.inc({ result: RESULT[r.next.outcome] });
  // The first success after failures: the webhooks that opted in resend what exhausted meanwhile.
  for (const { webhookId } of rows.filter((row) => row.recoverNow)) await resendExhausted(db, webhookId, now);
  return rows
    .filter((row) => row.disabledNow || row.notifiedNow)
    .map(({ webhookId, disabledNow, disabledReason }): WebhookAlert =>
      disabledNow ? { webhookId, kind: "disabled", reason: disabledReason as "receiver_gone" | "failing_5_days" } : { webhookId, kind: "failing" },
    );
}

/**
 * A webhook's health, kept by the statement that records its attempts, and written only when it
 * changes (so a webhook that keeps succeeding, or keeps failing, costs no write and no lock):
 * - `failingSince`: the first failure after the last success, cleared by a success;
 * - when it starts failing, the owners are told (`failingNotifiedAt`, at most once a day);
 * - an enabled webhook is disabled when its receiver answers 410 Gone, or when every attempt has
 *   failed since `failingSince` and that was FAILING_DISABLE_DAYS ago.
 * Its conditions are on the row as locked (`w`), so of two batches racing only one disables the
 * webhook or tells the owners; `= now` in the answer names what this statement changed.
 */
function healthUpdate(now: Date) {
  const failingCutoff = new Date(now.getTime() - FAILING_DISABLE_DAYS * DAY_MS);
  const noticeCutoff = new Date(now.getTime() - FAILING_NOTICE_INTERVAL_MS);
  return Prisma.sql`webhooks AS (
      UPDATE "Webhook" w SET
        "failingSince" = CASE WHEN h."lastSucceeded" THEN NULL WHEN h."anySucceeded" THEN ${now} ELSE COALESCE(w."failingSince", ${now}) END,
        "failingNotifiedAt" = CASE
          WHEN NOT h."lastSucceeded" AND (w."failingSince" IS NULL OR h."anySucceeded")
            AND (w."failingNotifiedAt" IS NULL OR w."failingNotifiedAt" <= ${noticeCutoff}) THEN ${now}
          ELSE w."failingNotifiedAt" END,
        "enabled" = w."enabled" AND NOT (h."gone" OR (NOT h."anySucceeded" AND COALESCE(w."failingSince" <= ${failingCutoff}, false))),
        "disabledReason" = CASE
          WHEN NOT w."enabled" THEN w."disabledReason"
          WHEN h."gone" THEN 'receiver_gone'
          WHEN NOT h."anySucceeded" AND COALESCE(w."failingSince" <= ${failingCutoff}, false) THEN 'failing_5_days'
          ELSE w."disabledReason" END,
        "disabledAt" = CASE
          WHEN w."enabled" AND (h."gone" OR (NOT h."anySucceeded" AND COALESCE(w."failingSince" <= ${failingCutoff}, false))) THEN ${now}
          ELSE w."disabledAt" END
      FROM health h
      WHERE w."id" = h."webhookId" AND (
        (h."lastSucceeded" AND w."failingSince" IS NOT NULL)
        OR (NOT h."lastSucceeded" AND (w."failingSince" IS NULL OR h."anySucceeded"))
        OR (w."enabled" AND (h."gone" OR (NOT h."anySucceeded" AND COALESCE(w."failingSince" <= ${failingCutoff}, false)))))
      RETURNING w."id" AS "webhookId", w."disabledAt" IS NOT DISTINCT FROM ${now} AS "disabledNow",
        w."failingNotifiedAt" IS NOT DISTINCT FROM ${now} AS "notifiedNow", w."disabledReason",
        -- A success after failures (a row with a last success is updated only when it was failing).
        h."lastSucceeded" AND w."autoRecover" AND w."enabled" AS "recoverNow"
    )`;
}
