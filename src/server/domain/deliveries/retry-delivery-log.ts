import type { Prisma } from "@/generated/prisma/client";
import { conflict, notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { requireTestResend } from "./test-resend";

export type RetryDeliveryResult = {
  deliveryId: string;
  webhookId: string;
  /** Always Pending: the delivery is queued again. */
  status: "Pending";
  /** When the new attempt is due (now); it gets the next attempt number. */
  nextAttemptAt: string;
};

/**
 * Manual retry of a failed log entry: the same delivery (same id, same payload) is made due again and
 * gets a new attempt, logged as a new entry; the caller tells the scheduler (`deliveryId`). Only a dead-lettered
 * delivery can be retried: a successful one has nothing to retry, and a Pending one is already
 * scheduled. Its automatic retries resume only while the delivery has used fewer than 5 attempts.
 * A test event's entry follows the rule of sending one (requireTestResend): `mayResendTests`, and a
 * disabled webhook gets it too.
 */
export async function retryDeliveryLog(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  logId: string,
  mayResendTests: boolean,
): Promise<RetryDeliveryResult> {
  await getOwnedProject(db, organizationId, projectId);
  const entry = await db.deliveryAttempt.findFirst({
    where: { id: logId, projectId },
    include: { delivery: { select: { status: true, attemptCount: true, nextAttemptAt: true, trackingId: true } } },
  });
  // A delivery whose webhook is gone (written by a claim during the webhook's deletion) awaits the purge.
  const webhook = entry && (await db.webhook.findUnique({ where: { id: entry.webhookId }, select: { enabled: true } }));
  if (!entry || !webhook) throw notFound("Delivery log entry");
  const { delivery } = entry;
  const isTest = delivery.trackingId === null;
  if (isTest) requireTestResend(mayResendTests);
  if (entry.success || delivery.status === "Succeeded") throw conflict("The delivery succeeded; there is nothing to retry.");
  if (delivery.status === "Pending") {
    throw conflict(`The delivery is already scheduled for another attempt at ${delivery.nextAttemptAt.toISOString()}.`);
  }
  if (!webhook.enabled && !isTest) throw conflict("The webhook is disabled; enable it before retrying.");

  const now = new Date();
  // Conditional on Failed: of two simultaneous retries, one wins and the other is a conflict.
  const requeued = await db.delivery.updateMany({
    where: { id: entry.deliveryId, status: "Failed", attemptCount: delivery.attemptCount },
    data: { status: "Pending", nextAttemptAt: now, lastError: null, leasedUntil: null, leasedBy: null },
  });
  if (requeued.count === 0) throw conflict("The delivery was retried meanwhile.");
  return { deliveryId: entry.deliveryId, webhookId: entry.webhookId, status: "Pending", nextAttemptAt: now.toISOString() };
}
