import type { Prisma } from "@/generated/prisma/client";
import { getOwnedWebhook } from "@/server/domain/webhooks/get-owned-webhook";
import { toDeliveryLogDto, type DeliveryLogDto } from "./to-delivery-log-dto";

/** The webhook's delivery log, newest first, at most `limit` entries. */
export async function listDeliveryLogs(
  db: Prisma.TransactionClient,
  organizationId: string,
  projectId: string,
  webhookId: string,
  { limit }: { limit: number },
): Promise<DeliveryLogDto[]> {
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
