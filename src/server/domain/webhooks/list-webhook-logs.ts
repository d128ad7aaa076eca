import type { Prisma } from "@/generated/prisma/client";
import { invalidField } from "@/server/domain/errors";
import { getOwnedWebhook } from "./get-owned-webhook";
import { toDeliveryLogDto, type DeliveryLogDto } from "./to-delivery-log-dto";

export const DEFAULT_LOG_LIMIT = 100;
export const MAX_LOG_LIMIT = 500;

/** The webhook's delivery log, newest first; `limit` is 1..500 (default 100). */
export async function listWebhookLogs(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  webhookId: string,
  options: { limit?: number } = {},
): Promise<DeliveryLogDto[]> {
  const limit = options.limit ?? DEFAULT_LOG_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LOG_LIMIT) {
    throw invalidField("limit", "range", `limit must be an integer from 1 to ${MAX_LOG_LIMIT}.`);
  }
  await getOwnedWebhook(db, organizationId, projectId, webhookId);
  const attempts = await db.deliveryAttempt.findMany({
    where: { webhookId, projectId },
    // createdAt has millisecond precision; the attempt number orders a delivery's entries within one.
    orderBy: [{ createdAt: "desc" }, { attemptNumber: "desc" }, { id: "desc" }],
    take: limit,
    include: { delivery: { select: { status: true } } },
  });
  return attempts.map(toDeliveryLogDto);
}
