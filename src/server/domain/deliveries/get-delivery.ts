import type { Prisma } from "@/generated/prisma/client";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { DELIVERY_COLUMNS, DELIVERY_JOINS, toDeliveryDto, type DeliveryDto, type DeliveryRow } from "./delivery-dto";
import { deliveryBody } from "./reward-payload";
import { redactedDeliveryHeaders } from "./sign-delivery";

/** One attempt as support reads it: what was sent (secret redacted), and what came back or why nothing did. */
export type DeliveryAttemptDto = {
  id: string;
  attemptNumber: number;
  at: string;
  success: boolean;
  /** Null when nothing was sent (refused before sending, or the worker stopped mid-attempt). */
  request: { url: string; headers: Record<string, string>; body: string | null } | null;
  /** Null when no HTTP answer came (see `error`). */
  response: { status: number; durationMs: number; body: string | null } | null;
  error: string | null;
  durationMs: number;
};

export type DeliveryDetailDto = { delivery: DeliveryDto; attempts: DeliveryAttemptDto[] };

/**
 * A delivery of the project with every attempt, first to last. The request of an attempt is rebuilt
 * from what it kept (URL, timestamp, signature) and the delivery's payload, with the same function
 * that built it for sending, so it is byte for byte what went out except the redacted secret.
 */
export async function getDelivery(db: Prisma.TransactionClient, organizationId: string, projectId: string, deliveryId: string): Promise<DeliveryDetailDto> {
  await getOwnedProject(db, organizationId, projectId);
  const [row] = await db.$queryRaw<(DeliveryRow & { payload: unknown })[]>`
    SELECT ${DELIVERY_COLUMNS}, d."payload" FROM "Delivery" d ${DELIVERY_JOINS}
    WHERE d."id" = ${deliveryId} AND d."projectId" = ${projectId}`;
  if (!row) throw notFound("Delivery");
  const attempts = await db.deliveryAttempt.findMany({ where: { deliveryId, projectId }, orderBy: { attemptNumber: "asc" } });
  const test = row.trackingId === null;
  const body = row.payload === null ? null : deliveryBody(row.eventType, row.payload);
  return {
    delivery: toDeliveryDto(row),
    attempts: attempts.map((attempt) => ({
      id: attempt.id,
      attemptNumber: attempt.attemptNumber,
      at: attempt.createdAt.toISOString(),
      success: attempt.success,
      request:
        attempt.requestUrl === null || attempt.requestTimestamp === null || attempt.requestSignature === null
          ? null
          : {
              url: attempt.requestUrl,
              headers: sentHeaders(deliveryId, attempt.requestTimestamp, attempt.requestSignature, body, test, row.eventType),
              body,
            },
      response:
        attempt.httpStatus === null ? null : { status: attempt.httpStatus, durationMs: attempt.responseTimeMs, body: attempt.responseExcerpt },
      error: attempt.error,
      durationMs: attempt.responseTimeMs,
    })),
  };
}

/** Once the body is purged its length is unknown too: Content-Length is left out rather than guessed. */
function sentHeaders(deliveryId: string, timestampSeconds: number, signature: string, body: string | null, test: boolean, eventType: string) {
  const headers = redactedDeliveryHeaders({ deliveryId, timestampSeconds, signature, body: body ?? "", test, eventType });
  if (body === null) delete headers["Content-Length"];
  return headers;
}
