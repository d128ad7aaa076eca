import { addDays, dayOf } from "@/lib/schemas/stats";
import type { Db } from "@/server/db/client";
import { getOwnedWebhook } from "./get-owned-webhook";

export type WebhookHealthDay = { date: string; attempts: number; succeeded: number; p95Ms: number | null };

/**
 * A webhook's attempts per UTC day over the last `days` days (today included), days without attempts
 * included as zeros: the health card's chart. One range of the (webhookId, createdAt) index.
 */
export async function getWebhookHealthHistory(db: Db, organizationId: string, projectId: string, webhookId: string, days: number, now = new Date()): Promise<WebhookHealthDay[]> {
  const webhook = await getOwnedWebhook(db, organizationId, projectId, webhookId);
  const from = addDays(dayOf(now), -(days - 1));
  const rows = await db.$queryRaw<WebhookHealthDay[]>`
    SELECT to_char(date_trunc('day', "createdAt"), 'YYYY-MM-DD') AS "date", count(*)::int AS "attempts",
      count(*) FILTER (WHERE "success")::int AS "succeeded",
      percentile_disc(0.95) WITHIN GROUP (ORDER BY "responseTimeMs") AS "p95Ms"
    FROM "DeliveryAttempt" WHERE "webhookId" = ${webhook.id} AND "createdAt" >= ${new Date(`${from}T00:00:00.000Z`)}
    GROUP BY 1`;
  const byDay = new Map(rows.map((r) => [r.date, r]));
  return Array.from({ length: days }, (_, i) => addDays(from, i)).map((date) => byDay.get(date) ?? { date, attempts: 0, succeeded: 0, p95Ms: null });
}
