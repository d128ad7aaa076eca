import type { Prisma } from "@/generated/prisma/client";
import type { RewardPayload } from "./reward-payload";

export type { RewardPayload } from "./reward-payload";

export type RewardEnvironment = "Sandbox" | "Production";

/**
 * Writes the outbox rows for a granted reward, inside the reward transaction, so a committed reward
 * can never lose its webhooks. Routing: a Sandbox call reaches Sandbox and Both webhooks, Production
 * reaches Production and Both, and a call without environment reaches every enabled webhook once.
 * Returns the delivery ids, for the scheduler to be nudged after commit.
 */
export async function enqueueRewardDeliveries(
  tx: Prisma.TransactionClient,
  payload: RewardPayload,
  environment: RewardEnvironment | null,
): Promise<string[]> {
  const webhooks = await tx.webhook.findMany({
    where: {
      campaignId: payload.campaignId,
      enabled: true,
      ...(environment ? { environment: { in: [environment, "Both"] } } : {}),
    },
    select: { id: true },
  });
  const deliveries = await tx.delivery.createManyAndReturn({
    data: webhooks.map((w) => ({
      projectId: payload.projectId,
      webhookId: w.id,
      trackingId: payload.trackingId,
      eventName: payload.event,
      payload,
    })),
    select: { id: true },
    // One delivery per (webhook, reward) even if this ever runs twice.
    skipDuplicates: true,
  });
  return deliveries.map((d) => d.id);
}
