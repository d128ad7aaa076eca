import { randomUUID } from "node:crypto";
import { TEST_EVENT_NAME } from "@/lib/schemas/deliveries";
import type { Db } from "@/server/db/client";
import { audited } from "@/server/domain/audit/audited";
import type { AuditActor } from "@/server/domain/audit/record-audit";
import { getOwnedWebhook } from "@/server/domain/webhooks/get-owned-webhook";
import { getDelivery, type DeliveryDetailDto } from "./get-delivery";
import { leaseMs, performAttempt, type AttemptOptions } from "./perform-attempt";
import type { RewardPayload } from "./reward-payload";

/** Stands for the parties and the tracking item of a test event: they name nobody, and no tracking item has this id. */
export const TEST_PARTY_ID = "referloop-test";
export const TEST_TRACKING_ID = "00000000-0000-0000-0000-000000000000";

/**
 * Sends a test event to a webhook now and answers its one attempt: a delivery of the spec's body with
 * `event` `referloop.test`, signed like any other and sent with `X-Service-Test: true`, logged like any
 * attempt. It belongs to no tracking item (its row has none) and grants nothing. It is written already
 * leased to this call, so no worker sends it too; it is never retried on its own. A disabled webhook
 * gets it as well: that is how a receiver is checked before re-enabling. Sending one is audited (it
 * reaches the customer's receiver): the entry is written with the delivery row, before the attempt.
 */
export async function sendTestEvent(
  db: Db,
  organizationId: string,
  projectId: string,
  webhookId: string,
  actor: AuditActor,
  options: Omit<AttemptOptions, "workerId">,
): Promise<DeliveryDetailDto> {
  const webhook = await getOwnedWebhook(db, organizationId, projectId, webhookId);
  const project = await db.project.findUniqueOrThrow({ where: { id: projectId }, select: { name: true } });
  const now = new Date();
  const payload: RewardPayload = {
    event: TEST_EVENT_NAME,
    referrerId: TEST_PARTY_ID,
    refereeId: TEST_PARTY_ID,
    rewardClaimedAt: now.toISOString(),
    trackingId: TEST_TRACKING_ID,
    rewardStatus: "Completed",
    projectId,
    projectName: project.name,
    campaignId: webhook.campaignId,
  };
  const workerId = `test-event:${randomUUID()}`;
  const delivery = await audited(
    db,
    organizationId,
    actor,
    (tx) =>
      tx.delivery.create({
        data: {
          projectId,
          webhookId,
          trackingId: null,
          eventName: TEST_EVENT_NAME,
          eventType: TEST_EVENT_NAME,
          payload,
          nextAttemptAt: now,
          leasedBy: workerId,
          leasedUntil: new Date(now.getTime() + leaseMs(options)),
        },
      }),
    (created) => ({ action: "webhook.test", target: { type: "webhook", id: webhookId, label: webhook.name }, details: { projectId, deliveryId: created.id } }),
  );
  await performAttempt(db, delivery.id, { ...options, workerId });
  return getDelivery(db, organizationId, projectId, delivery.id);
}
