import type { DeliveryLog } from "./types";

export type DeliveryGroup = {
  deliveryId: string;
  eventType: string;
  /** The delivery's current state (the same on each of its entries). */
  status: DeliveryLog["deliveryStatus"];
  /** Its attempts in the loaded entries, newest first. */
  attempts: DeliveryLog[];
  latest: DeliveryLog;
  /** Failed for good, or its latest attempt failed: what support looks at first. */
  needsAttention: boolean;
};

const RANK: Record<DeliveryLog["deliveryStatus"], number> = { Failed: 0, Pending: 1, Succeeded: 2 };

const newestFirst = (a: DeliveryLog, b: DeliveryLog) => b.timestamp.localeCompare(a.timestamp) || b.attemptNumber - a.attemptNumber;

/**
 * Log entries (one per attempt) grouped by delivery. Dead-lettered deliveries come first, then those
 * still retrying after a failed attempt, then the rest; newest activity first within each.
 */
export function groupDeliveries(logs: readonly DeliveryLog[]): DeliveryGroup[] {
  const byId = new Map<string, DeliveryLog[]>();
  for (const log of logs) {
    const list = byId.get(log.deliveryId);
    if (list) list.push(log);
    else byId.set(log.deliveryId, [log]);
  }
  const groups: DeliveryGroup[] = [];
  for (const [deliveryId, entries] of byId) {
    const attempts = [...entries].sort(newestFirst);
    const latest = attempts[0]!;
    groups.push({
      deliveryId,
      eventType: latest.eventType,
      status: latest.deliveryStatus,
      attempts,
      latest,
      needsAttention: latest.deliveryStatus === "Failed" || (!latest.success && latest.deliveryStatus !== "Succeeded"),
    });
  }
  const rank = (g: DeliveryGroup) => (g.needsAttention ? RANK[g.status] : 3);
  return groups.sort((a, b) => rank(a) - rank(b) || newestFirst(a.latest, b.latest));
}
