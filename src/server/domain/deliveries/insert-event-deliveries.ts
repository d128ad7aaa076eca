import { Prisma, type RewardEnvironment } from "@/generated/prisma/client";
import type { WebhookEventType } from "@/lib/schemas/webhook-events";
import { prepared } from "@/server/db/prepared-statements";
import type { DeliveryLease } from "./claim-attempts";
import type { OutboxWrite, WrittenDelivery } from "./outbox";

/** One event of the catalogue, for the webhooks of its project that subscribe to its type. */
export type CatalogueEvent = {
  type: WebhookEventType;
  projectId: string;
  /**
   * The referral it is about (for milestone.reached, the reward that reached it): a webhook gets one
   * delivery per tracking item and type (a second write is a no-op). Required: a delivery without a
   * tracking item is a test event (Delivery.trackingId).
   */
  trackingId: string;
  /** The item's parties (AppUser ids), kept on each delivery (see Delivery.referrerId); SQL when the writer's statement knows them. */
  parties: { referrerId: string | null | Prisma.Sql; refereeId: string | null | Prisma.Sql };
  /** Routing, as for rewards: Sandbox reaches Sandbox and Both webhooks, Production reaches Production and Both, null every one. */
  environment: RewardEnvironment | null;
  /** The delivery's `eventName` (its log's "event"): the trigger event for reward.granted; by default the type. */
  eventName?: string;
  /**
   * The body's fields. Every type but reward.granted gets `type` first (deliveryBody); reward.granted's
   * body is the spec's, field for field (see rewardPayloadBody).
   */
  payload: Record<string, unknown>;
  /** Fields only the writer's statement knows (a jsonb expression), added to `payload`. */
  payloadSql?: Prisma.Sql;
  /** The `eventName` when only the writer's statement knows it (a text expression). */
  eventNameSql?: Prisma.Sql;
};

/** What is stored, and sent, for an event: its type first, then its fields (reward.granted's as they are). */
export const storedPayload = (event: CatalogueEvent): Record<string, unknown> =>
  event.type === "reward.granted" ? event.payload : { type: event.type, ...event.payload };

/**
 * The outbox INSERT of an event: one delivery per enabled webhook of the project subscribed to its
 * type and routed to its environment, returning the ids. A statement part, so that a writer can make
 * it part of its own statement (the reward claim's, gated by `onlyIf`) or transaction: a committed
 * change can never lose its webhooks. It reads the webhooks in the same statement, and fills in what
 * Prisma otherwise would: UUID ids and the timestamps, `at` being this process's clock as the delivery
 * worker expects (see claimDueAttempts). With a lease, the rows are written with their first attempt
 * claimed under it (see DeliveryLease).
 */
export function eventDeliveriesInsert(
  event: CatalogueEvent,
  { at, onlyIf = Prisma.sql`true`, lease = null }: { at: Date; onlyIf?: Prisma.Sql; lease?: DeliveryLease | null },
): Prisma.Sql {
  const routed = event.environment ? Prisma.sql`AND w."environment"::text IN (${event.environment}, 'Both')` : Prisma.empty;
  return Prisma.sql`
    INSERT INTO "Delivery" ("id", "projectId", "webhookId", "trackingId", "referrerId", "refereeId", "eventName", "eventType", "payload", "nextAttemptAt",
      "attemptCount", "leasedUntil", "leasedBy", "createdAt", "updatedAt")
    SELECT gen_random_uuid()::text, ${event.projectId}, w."id", ${event.trackingId}::text, ${event.parties.referrerId}::text, ${event.parties.refereeId}::text,
      ${event.eventNameSql ?? event.eventName ?? event.type}, ${event.type}, ${JSON.stringify(storedPayload(event))}::jsonb ${event.payloadSql ? Prisma.sql`|| ${event.payloadSql}` : Prisma.empty}, ${at}, ${lease ? 1 : 0}::int,
      ${lease?.until ?? null}::timestamp(3), ${lease?.workerId ?? null}::text, ${at}, ${at}
    FROM "Webhook" w
    WHERE w."projectId" = ${event.projectId} AND w."enabled" AND ${event.type} = ANY(w."events") ${routed} AND ${onlyIf}
    ON CONFLICT ("webhookId", "trackingId", "eventType") DO NOTHING
    RETURNING "id", "webhookId"`;
}

/**
 * Writes an event's deliveries inside the caller's transaction (one statement; none when no webhook
 * subscribes) and answers what to hand the outbox after the commit (`outbox.dispatch`).
 */
export async function writeEventDeliveries(tx: Prisma.TransactionClient, event: CatalogueEvent, at: Date = new Date()): Promise<OutboxWrite<Record<string, unknown>>> {
  const deliveries = await prepared<WrittenDelivery>(tx)`
    WITH deliveries AS (${eventDeliveriesInsert(event, { at })})
    SELECT d."id", d."webhookId", w."url", w."secretEncrypted" FROM deliveries d JOIN "Webhook" w ON w."id" = d."webhookId"`;
  return toOutboxWrite(event, deliveries, null);
}

export const toOutboxWrite = (event: CatalogueEvent, deliveries: WrittenDelivery[], lease: DeliveryLease | null): OutboxWrite<Record<string, unknown>> => ({
  projectId: event.projectId,
  eventType: event.type,
  eventName: event.eventName ?? event.type,
  payload: storedPayload(event),
  deliveries,
  lease,
});
