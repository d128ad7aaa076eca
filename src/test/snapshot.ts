import type { Db } from "@/server/db/client";

/**
 * Everything a request can write, as one string, for "a refused request changed nothing" checks:
 * compare a snapshot from before the request with one from after.
 */
export async function dataSnapshot(db: Db): Promise<string> {
  const byId = { orderBy: { id: "asc" } } as const;
  const rows = await Promise.all([
    db.project.findMany(byId),
    db.campaign.findMany(byId),
    db.appUser.findMany(byId),
    db.referralTracking.findMany(byId),
    db.rewardHistory.findMany(byId),
    db.rewardEvent.findMany(byId),
    db.webhook.findMany(byId),
    db.delivery.findMany(byId),
    db.activity.findMany(byId),
    db.idempotencyRecord.findMany(byId),
  ]);
  return JSON.stringify(rows);
}
