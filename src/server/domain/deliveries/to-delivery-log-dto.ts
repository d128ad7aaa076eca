import type { DeliveryAttempt, DeliveryStatus } from "@/generated/prisma/client";

export type DeliveryLogDto = {
  /** The log entry id: the `{logId}` of the manual retry call. */
  id: string;
  webhookId: string;
  /** Stable across attempts; the receiver saw it as X-Service-Delivery-Id and webhook-id. */
  deliveryId: string;
  /** 1 for the first attempt; manual retries continue the count. */
  attemptNumber: number;
  /** When the attempt finished (ISO 8601 UTC). */
  timestamp: string;
  /** The trigger event name. */
  eventType: string;
  /** Null when no response came back (timeout, network error, refused target). */
  httpStatus: number | null;
  responseTimeMs: number;
  success: boolean;
  /** Short reason for a failure, null on success. */
  error: string | null;
  /** The first KiB of the response body, if any. */
  responseExcerpt: string | null;
  /** The delivery's current state: Pending (retry scheduled), Succeeded, or Failed (dead-lettered). */
  deliveryStatus: DeliveryStatus;
  /** True when the manual retry call would accept this entry. */
  retryable: boolean;
};

export type DeliveryAttemptWithStatus = DeliveryAttempt & { delivery: { status: DeliveryStatus } };

/** Manual retry is for a failed entry of a dead-lettered delivery (see retry-delivery-log). */
export const isRetryable = (attempt: DeliveryAttemptWithStatus) => !attempt.success && attempt.delivery.status === "Failed";

export const toDeliveryLogDto = (attempt: DeliveryAttemptWithStatus): DeliveryLogDto => ({
  id: attempt.id,
  webhookId: attempt.webhookId,
  deliveryId: attempt.deliveryId,
  attemptNumber: attempt.attemptNumber,
  timestamp: attempt.createdAt.toISOString(),
  eventType: attempt.eventType,
  httpStatus: attempt.httpStatus,
  responseTimeMs: attempt.responseTimeMs,
  success: attempt.success,
  error: attempt.error,
  responseExcerpt: attempt.responseExcerpt,
  deliveryStatus: attempt.delivery.status,
  retryable: isRetryable(attempt),
});
