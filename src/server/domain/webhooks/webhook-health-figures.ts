import type { Prisma } from "@/generated/prisma/client";

/** The window of a webhook's health figures. */
export const HEALTH_WINDOW_HOURS = 24;

/** How a webhook's receiver has been doing: over the last 24 hours, and since its last success. */
export type WebhookHealth = {
  windowHours: number;
  /** Attempts in the window, and the share of them that succeeded (null when there were none). */
  attempts: number;
  successRate: number | null;
  /** Median and 95th percentile response time of the window's attempts that got an answer (null: none did). */
  p50Ms: number | null;
  p95Ms: number | null;
  /** Failed attempts since the last successful one (all of them when none ever succeeded). */
  consecutiveFailures: number;
  lastSuccessAt: string | null;
};

export const NO_HEALTH: WebhookHealth = { windowHours: HEALTH_WINDOW_HOURS, attempts: 0, successRate: null, p50Ms: null, p95Ms: null, consecutiveFailures: 0, lastSuccessAt: null };

type Row = { id: string; attempts: number; succeeded: number; p50: number | null; p95: number | null; lastSuccessAt: Date | null; consecutiveFailures: number };

/**
 * The health figures of some webhooks, from their delivery log, in one statement: the window's
 * attempts through the (webhookId, createdAt) index, the last success by walking that index back
 * to the first successful entry, and the failures since then.
 */
export async function webhookHealth(db: Prisma.TransactionClient, webhookIds: string[], now: Date = new Date()): Promise<Map<string, WebhookHealth>> {
  if (!webhookIds.length) return new Map();
  const since = new Date(now.getTime() - HEALTH_WINDOW_HOURS * 60 * 60_000);
  const rows = await db.$queryRaw<Row[]>`
    SELECT w."id", s."attempts", s."succeeded", s."p50", s."p95", l."lastSuccessAt",
      (SELECT count(*)::int FROM "DeliveryAttempt" a WHERE a."webhookId" = w."id" AND NOT a."success"
        AND a."createdAt" > COALESCE(l."lastSuccessAt", '-infinity'::timestamp)) AS "consecutiveFailures"
    FROM "Webhook" w
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS "attempts", count(*) FILTER (WHERE a."success")::int AS "succeeded",
        percentile_cont(0.5) WITHIN GROUP (ORDER BY a."responseTimeMs") FILTER (WHERE a."httpStatus" IS NOT NULL) AS "p50",
        percentile_cont(0.95) WITHIN GROUP (ORDER BY a."responseTimeMs") FILTER (WHERE a."httpStatus" IS NOT NULL) AS "p95"
      FROM "DeliveryAttempt" a WHERE a."webhookId" = w."id" AND a."createdAt" >= ${since}
    ) s
    CROSS JOIN LATERAL (
      SELECT max(x."createdAt") AS "lastSuccessAt" FROM (
        SELECT a."createdAt" FROM "DeliveryAttempt" a WHERE a."webhookId" = w."id" AND a."success" ORDER BY a."createdAt" DESC LIMIT 1
      ) x
    ) l
    WHERE w."id" = ANY(${webhookIds}::text[])`;
  return new Map(
    rows.map((row) => [
      row.id,
      {
        windowHours: HEALTH_WINDOW_HOURS,
        attempts: row.attempts,
        successRate: row.attempts ? row.succeeded / row.attempts : null,
        p50Ms: row.p50 === null ? null : Math.round(row.p50),
        p95Ms: row.p95 === null ? null : Math.round(row.p95),
        consecutiveFailures: row.consecutiveFailures,
        lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
      },
    ]),
  );
}
