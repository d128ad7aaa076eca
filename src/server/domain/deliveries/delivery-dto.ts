import { Prisma, type DeliveryStatus } from "@/generated/prisma/client";
import type { DeliveryFailure } from "@/lib/schemas/deliveries";

/** A delivery as the support console shows it: what it is about, where it stands, and its last attempt. */
export type DeliveryDto = {
  deliveryId: string;
  webhookId: string;
  webhookName: string;
  /** Null for a test event. */
  trackingId: string | null;
  /** The referrer's and the referee's clientProvidedId (null for a test event), and their uniqueIds. */
  referrerId: string | null;
  refereeId: string | null;
  referrerUniqueId: string | null;
  refereeUniqueId: string | null;
  event: string;
  status: DeliveryStatus;
  /** Attempts made (manual retries included). */
  attempts: number;
  lastAttemptAt: string | null;
  /** When the next attempt is due; null when none is (Succeeded, Failed). */
  nextAttemptAt: string | null;
  lastHttpStatus: number | null;
  lastError: string | null;
  /** Why it Failed; null unless Failed. */
  failure: DeliveryFailure | null;
  test: boolean;
  /** The retry call would accept it now. */
  retryable: boolean;
  /** When the retention purge removed its bodies; null while they are kept. */
  bodiesPurgedAt: string | null;
  /** When the webhook's recovery sent it again after the receiver came back; null if it never did. */
  recoveredAt: string | null;
  createdAt: string;
};

/** The columns of a DeliveryDto, from `d` (Delivery) joined to `w` (its webhook) as in DELIVERY_JOINS. */
export const DELIVERY_COLUMNS = Prisma.sql`
  d."id", d."webhookId", COALESCE(w."name", '') AS "webhookName", d."trackingId", r."clientProvidedId" AS "referrerId", e."clientProvidedId" AS "refereeId",
  d."referrerId" AS "referrerUniqueId", d."refereeId" AS "refereeUniqueId", d."eventName", d."eventType", d."status"::text AS "status", d."attemptCount",
  d."lastAttemptAt", d."nextAttemptAt", d."lastHttpStatus", d."lastError", d."failure", d."bodiesPurgedAt", d."recoveredAt", d."createdAt",
  d."leasedUntil", COALESCE(w."enabled", false) AS "webhookEnabled"`;

/**
 * The webhook and the item's two users (none for a test event, or an erased one), by the keys on the
 * delivery (Delivery.referrerId): no tracking item is read. LEFT JOINs on keys, which PostgreSQL leaves
 * out of a statement that reads none of their columns. A delivery that a claim wrote while its webhook
 * was being deleted has no webhook until the purge job deletes it (purgeOrphanDeliveries): an empty
 * name, and not retryable.
 */
export const DELIVERY_JOINS = Prisma.sql`
  LEFT JOIN "Webhook" w ON w."id" = d."webhookId"
  LEFT JOIN "AppUser" r ON r."id" = d."referrerId"
  LEFT JOIN "AppUser" e ON e."id" = d."refereeId"`;

export type DeliveryRow = {
  id: string;
  webhookId: string;
  webhookName: string;
  trackingId: string | null;
  referrerId: string | null;
  refereeId: string | null;
  referrerUniqueId: string | null;
  refereeUniqueId: string | null;
  eventName: string;
  eventType: string;
  status: DeliveryStatus;
  attemptCount: number;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date;
  lastHttpStatus: number | null;
  lastError: string | null;
  failure: string | null;
  bodiesPurgedAt: Date | null;
  recoveredAt: Date | null;
  createdAt: Date;
  leasedUntil: Date | null;
  webhookEnabled: boolean;
};

/** A worker holds the delivery: an attempt is on its way to the receiver. */
export const isInFlight = (row: Pick<DeliveryRow, "status" | "leasedUntil">, now: Date) =>
  row.status === "Pending" && row.leasedUntil !== null && row.leasedUntil > now;

/**
 * Whether the retry call accepts a delivery: one that has not succeeded, whose body is still kept, that
 * no worker is sending right now, and whose webhook is enabled (a test event goes to a disabled one too).
 */
export const isRetryable = (row: Pick<DeliveryRow, "status" | "bodiesPurgedAt" | "leasedUntil" | "webhookEnabled" | "trackingId">, now: Date) =>
  row.status !== "Succeeded" && row.bodiesPurgedAt === null && !isInFlight(row, now) && (row.webhookEnabled || row.trackingId === null);

export const toDeliveryDto = (row: DeliveryRow, now: Date = new Date()): DeliveryDto => ({
  deliveryId: row.id,
  webhookId: row.webhookId,
  webhookName: row.webhookName,
  trackingId: row.trackingId,
  referrerId: row.referrerId,
  refereeId: row.refereeId,
  referrerUniqueId: row.referrerUniqueId,
  refereeUniqueId: row.refereeUniqueId,
  event: row.eventName,
  status: row.status,
  attempts: row.attemptCount,
  lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  nextAttemptAt: row.status === "Pending" ? row.nextAttemptAt.toISOString() : null,
  lastHttpStatus: row.lastHttpStatus,
  lastError: row.lastError,
  failure: row.status === "Failed" ? ((row.failure as DeliveryFailure | null) ?? "dead_lettered") : null,
  test: row.trackingId === null,
  retryable: isRetryable(row, now),
  bodiesPurgedAt: row.bodiesPurgedAt?.toISOString() ?? null,
  recoveredAt: row.recoveredAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});
