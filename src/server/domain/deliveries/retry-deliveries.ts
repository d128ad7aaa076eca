import { Prisma } from "@/generated/prisma/client";
import { BULK_RETRY_MAX, type DeliveryFilter } from "@/lib/schemas/deliveries";
import { DomainError } from "@/server/domain/errors";
import { deliveriesWhere, getFilteredProject } from "./select-deliveries";

export type BulkRetryResult = { count: number; requestedAt: string; deliveryIds: string[] };

/**
 * Bulk retry: every delivery the filter selects that a single retry would accept (not Succeeded, not
 * being sent, body kept, webhook enabled or a test event) is made due now, in one statement under the
 * caller's transaction; test events only when `mayResendTests` (requireTestResend's rule), else they are
 * not selected. More than BULK_RETRY_MAX is refused whole, so a broad filter never floods the
 * receivers by accident: the caller narrows it.
 */
export async function retryDeliveries(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  filter: DeliveryFilter,
  mayResendTests: boolean,
): Promise<BulkRetryResult> {
  await getFilteredProject(db, organizationId, projectId, filter);
  const now = new Date();
  const retryable = Prisma.sql`${deliveriesWhere(projectId, filter)} AND d."status" <> 'Succeeded' AND d."bodiesPurgedAt" IS NULL
    AND (d."leasedUntil" IS NULL OR d."leasedUntil" < ${now})
    AND (${mayResendTests ? Prisma.sql`d."trackingId" IS NULL` : Prisma.sql`FALSE`} OR (d."trackingId" IS NOT NULL AND EXISTS (SELECT FROM "Webhook" w WHERE w."id" = d."webhookId" AND w."enabled")))`;
  const selected = await db.$queryRaw<{ id: string }[]>`SELECT d."id" FROM "Delivery" d WHERE ${retryable} LIMIT ${BULK_RETRY_MAX + 1}`;
  if (selected.length > BULK_RETRY_MAX) {
    const message = `The filter selects more than ${BULK_RETRY_MAX.toLocaleString("en-GB")} deliveries to retry; narrow the filter (status, webhookId, event, from, to or search).`;
    throw new DomainError("invalid", message, [{ field: "filter", rule: "too_many", message }]);
  }
  const ids = selected.map((row) => row.id);
  const retried = await db.$queryRaw<{ id: string }[]>`
    UPDATE "Delivery" d SET "status" = 'Pending', "nextAttemptAt" = ${now}, "failure" = NULL, "leasedUntil" = NULL, "leasedBy" = NULL, "updatedAt" = ${now}
    WHERE d."id" = ANY(${ids}::text[]) AND ${retryable}
    RETURNING d."id"`;
  return { count: retried.length, requestedAt: now.toISOString(), deliveryIds: retried.map((row) => row.id) };
}
