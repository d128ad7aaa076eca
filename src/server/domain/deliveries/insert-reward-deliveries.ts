import { Prisma, type RewardEnvironment } from "@/generated/prisma/client";
import type { DeliveryLease } from "./claim-attempts";
import type { RewardPayload } from "./reward-payload";

/**
 * The outbox INSERT for a granted reward, returning the delivery ids; the reward claim makes it part of
 * its one statement, gated by `onlyIf`, so a committed reward can never lose its webhooks. Routing: a
 * Sandbox call reaches Sandbox and Both webhooks,
 * Production reaches Production and Both, and a call without environment reaches every enabled
 * webhook once. Reads the webhooks in the same statement (the reward path is bound by Node CPU per
 * statement), and fills in what Prisma otherwise would: UUID ids and the timestamps, `at` being this
 * process's clock as the delivery worker expects (see claimDueAttempts). With a lease, the rows are
 * written with their first attempt claimed under it (see DeliveryLease). `parties` are the item's
 * referrer and referee (AppUser ids), kept on each delivery (see Delivery.referrerId).
 */
export function insertRewardDeliveries(
  payload: RewardPayload,
  environment: RewardEnvironment | null,
  parties: { referrerId: string | null; refereeId: string | null },
  { at, onlyIf = Prisma.sql`true`, lease = null }: { at: Date; onlyIf?: Prisma.Sql; lease?: DeliveryLease | null },
): Prisma.Sql {
  const routed = environment ? Prisma.sql`AND w."environment"::text IN (${environment}, 'Both')` : Prisma.empty;
  return Prisma.sql`
    INSERT INTO "Delivery" ("id", "projectId", "webhookId", "trackingId", "referrerId", "refereeId", "eventName", "payload", "nextAttemptAt",
      "attemptCount", "leasedUntil", "leasedBy", "createdAt", "updatedAt")
    SELECT gen_random_uuid()::text, ${payload.projectId}, w."id", ${payload.trackingId}, ${parties.referrerId}::text, ${parties.refereeId}::text, ${payload.event},
      ${JSON.stringify(payload)}::jsonb, ${at}, ${lease ? 1 : 0}::int, ${lease?.until ?? null}::timestamp(3), ${lease?.workerId ?? null}::text, ${at}, ${at}
    FROM "Webhook" w
    WHERE w."campaignId" = ${payload.campaignId} AND w."enabled" ${routed} AND ${onlyIf}
    -- One delivery per (webhook, reward) even if this ever runs twice.
    ON CONFLICT ("webhookId", "trackingId") DO NOTHING
    RETURNING "id", "webhookId"`;
}
