import type { Db } from "@/server/db/client";
import type { DeliveryOutbox } from "@/server/domain/deliveries/outbox";
import { DomainError } from "@/server/domain/errors";
import { decideReview } from "./decide-review";

/** Holds completed per run; the next run takes the rest. */
export const HOLD_RELEASE_BATCH = 200;

/**
 * Completes the rewards whose hold has ended (holdUntil at or before `now`) as an approval would,
 * unaudited (nobody decided). Several processes may run it at once: each item is taken by one of
 * them, the others find it gone (a 409 they skip). Returns how many this run completed or failed.
 */
export async function releaseEndedHolds(deps: { db: Db; outbox: DeliveryOutbox }, now = new Date()): Promise<number> {
  const due = await deps.db.$queryRaw<{ trackingId: string; projectId: string; organizationId: string }[]>`
    SELECT r."trackingId", r."projectId", p."organizationId"
    FROM "RewardReview" r JOIN "Project" p ON p."id" = r."projectId"
    WHERE r."holdUntil" <= ${now}
    ORDER BY r."holdUntil" LIMIT ${HOLD_RELEASE_BATCH}`;
  let released = 0;
  for (const held of due) {
    try {
      await decideReview(deps, held, held.trackingId, "approve", null, now);
      released++;
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === "conflict")) throw error;
    }
  }
  return released;
}
