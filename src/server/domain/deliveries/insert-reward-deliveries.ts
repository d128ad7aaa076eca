import type { Prisma, RewardEnvironment } from "@/generated/prisma/client";
import type { DeliveryLease } from "./claim-attempts";
import { eventDeliveriesInsert, type CatalogueEvent } from "./insert-event-deliveries";
import type { RewardPayload } from "./reward-payload";

/** A granted reward as an event of the catalogue: its body is the spec's, its log's event the trigger event. */
export const rewardGrantedEvent = (
  payload: RewardPayload,
  environment: RewardEnvironment | null,
  parties: { referrerId: string | null; refereeId: string | null },
): CatalogueEvent => ({
  type: "reward.granted",
  projectId: payload.projectId,
  trackingId: payload.trackingId,
  parties,
  environment,
  eventName: payload.event,
  payload,
});

/**
 * The outbox INSERT for a granted reward (to the webhooks subscribed to `reward.granted`); the reward
 * claim makes it part of its one statement, gated by `onlyIf`, so a committed reward can never lose
 * its webhooks. `parties` are the item's referrer and referee (AppUser ids).
 */
export function insertRewardDeliveries(
  payload: RewardPayload,
  environment: RewardEnvironment | null,
  parties: { referrerId: string | null; refereeId: string | null },
  options: { at: Date; onlyIf?: Prisma.Sql; lease?: DeliveryLease | null },
): Prisma.Sql {
  return eventDeliveriesInsert(rewardGrantedEvent(payload, environment, parties), options);
}
