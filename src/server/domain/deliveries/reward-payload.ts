import { Prisma } from "@/generated/prisma/client";
import type { z } from "zod";
import { TEST_EVENT_NAME } from "@/lib/schemas/deliveries";
import { rewardDeliverySchema } from "@/lib/schemas/webhooks";

/** The body of the reward webhook, field for field as the spec's Events section lists it. */
export type RewardPayload = z.infer<typeof rewardDeliverySchema>;

const FIELDS = Object.keys(rewardDeliverySchema.shape) as (keyof RewardPayload)[];

/**
 * The exact bytes sent (and signed) for a stored payload: the spec's fields in the spec's order and
 * nothing else, so whatever else a stored row might carry never reaches a receiver.
 */
export function rewardPayloadBody(stored: unknown): string {
  const source = (stored ?? {}) as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const field of FIELDS) body[field] = source[field] ?? null;
  return JSON.stringify(body);
}

/**
 * The exact bytes sent for a delivery of `eventType`: the reward's and the test event's, the spec's
 * fields (rewardPayloadBody); any other type's stored payload is its body as written (storedPayload).
 */
export const deliveryBody = (eventType: string, stored: unknown): string =>
  eventType === "reward.granted" || eventType === TEST_EVENT_NAME ? rewardPayloadBody(stored) : JSON.stringify({ type: eventType, ...(stored ?? {}) });

/**
 * The payload a reward claimed at `claimedAt` delivers, as the claim's statement writes it: a jsonb
 * expression over its row `r` (the item as rewardItemSelect reads it, and the event name it records).
 */
export function rewardPayloadSql(claimedAt: Date): Prisma.Sql {
  const fields: Record<keyof RewardPayload, Prisma.Sql> = {
    event: Prisma.sql`r."eventName"`,
    referrerId: Prisma.sql`r."referrerClientId"`,
    refereeId: Prisma.sql`r."refereeClientId"`,
    rewardClaimedAt: Prisma.sql`CAST(${claimedAt.toISOString()} AS text)`,
    trackingId: Prisma.sql`r."id"`,
    rewardStatus: Prisma.sql`'Completed'`,
    projectId: Prisma.sql`r."projectId"`,
    projectName: Prisma.sql`r."projectName"`,
    campaignId: Prisma.sql`r."campaignId"`,
  };
  return Prisma.sql`jsonb_build_object(${Prisma.join(Object.entries(fields).map(([name, value]) => Prisma.sql`${Prisma.raw(`'${name}'`)}, ${value}`))})`;
}
