import type { Prisma } from "@/generated/prisma/client";
import { conflict, notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { isInFlight } from "./delivery-dto";
import type { RetryDeliveryResult } from "./retry-delivery-log";
import { requireTestResend } from "./test-resend";

/**
 * One Retry per delivery: a Failed delivery is sent again, a Pending one is sent now instead of at its
 * scheduled time; either way the same delivery (same id, same payload) gets its next attempt, and the
 * caller tells the scheduler. A Succeeded delivery, one a worker is sending right now, one whose body
 * was purged, or one whose webhook is disabled (a test event excepted) is a conflict. A test event is
 * re-sent only when `mayResendTests` (see requireTestResend).
 */
export async function retryDelivery(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  deliveryId: string,
  mayResendTests: boolean,
): Promise<RetryDeliveryResult> {
  await getOwnedProject(db, organizationId, projectId);
  const delivery = await db.delivery.findFirst({
    where: { id: deliveryId, projectId },
    select: { status: true, attemptCount: true, leasedUntil: true, bodiesPurgedAt: true, trackingId: true, webhookId: true },
  });
  // A delivery whose webhook is gone (written by a claim during the webhook's deletion) awaits the purge.
  const webhook = delivery && (await db.webhook.findUnique({ where: { id: delivery.webhookId }, select: { enabled: true } }));
  if (!delivery || !webhook) throw notFound("Delivery");
  if (delivery.trackingId === null) requireTestResend(mayResendTests);
  const now = new Date();
  if (delivery.status === "Succeeded") throw conflict("The delivery succeeded; there is nothing to retry.");
  if (isInFlight(delivery, now)) throw conflict("An attempt of this delivery is being sent right now; follow its result.");
  if (delivery.bodiesPurgedAt) throw conflict("The delivery's body was purged at the end of its retention; it cannot be sent again.");
  if (!webhook.enabled && delivery.trackingId !== null) throw conflict("The webhook is disabled; enable it before retrying.");

  // Conditional on the state read: of two simultaneous retries (or a retry and a worker), one wins.
  const requeued = await db.delivery.updateMany({
    where: { id: deliveryId, status: delivery.status, attemptCount: delivery.attemptCount, OR: [{ leasedUntil: null }, { leasedUntil: { lt: now } }] },
    data: { status: "Pending", nextAttemptAt: now, failure: null, leasedUntil: null, leasedBy: null },
  });
  if (requeued.count === 0) throw conflict("The delivery changed meanwhile (retried, or an attempt started); look again.");
  return { deliveryId, webhookId: delivery.webhookId, status: "Pending", nextAttemptAt: now.toISOString() };
}
