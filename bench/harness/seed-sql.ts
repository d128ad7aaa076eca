/**
 * Bulk rows for the HTTP bench and the drills, written straight into the tables (SQL with
 * generate_series: seconds for what the API would take minutes to create). Projects, keys and
 * webhooks come from the app itself (setup.ts); these rows only reference them.
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import { seedAppUsers, seededAppUserIdSql, seededClientId, seedReferredBy, withIndexesRebuilt } from "../seed";

/**
 * `count` app users (every tenth referred by the one before) with the fast path for a large AppUser
 * table (withIndexesRebuilt): a million rows take about 30 s this way on the 2-core machine, against
 * about 3 minutes through the live indexes.
 */
export async function seedManyAppUsers(client: pg.Client, projectId: string, count: number, prefix: string) {
  await withIndexesRebuilt(client, ["AppUser", "AppUserCounters"], async () => {
    await seedAppUsers(client, projectId, count, prefix);
    await seedReferredBy(client, projectId, count);
  });
}

/** Referrers: ordinary seeded users numbered 1..count (their codes are seededReferralCode(n)). */
export async function seedReferrers(client: pg.Client, projectId: string, count: number, prefix: string) {
  await seedAppUsers(client, projectId, count, prefix);
}

export type PendingItem = { trackingId: string; refereeClientId: string };

/** md5 of `text` as PostgreSQL's md5(text)::uuid::text renders it. */
const md5Uuid = (text: string) => createHash("md5").update(text).digest("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
const trackingIdSql = (projectIdParam: string, n: string) => `md5(${projectIdParam} || ':tracking:' || ${n})::uuid::text`;

/**
 * `count` tracking items (Pending by default), each with a referee of its own (numbered from
 * `first`, which must not overlap the referrers' numbers) and a referrer among the `referrers`
 * seeded ones, so every item is a distinct referrer/referee pair that a reward call can claim.
 */
export async function seedPendingItems(
  client: pg.Client,
  input: { projectId: string; campaignId: string; referrers: number; count: number; first: number; refereePrefix: string; status?: "Pending" | "Completed" },
): Promise<PendingItem[]> {
  const { projectId, campaignId, referrers, count, first, refereePrefix } = input;
  await seedAppUsers(client, projectId, count, refereePrefix, first);
  const { rowCount } = await client.query(
    `INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "refereeId", "referralCode", "status",
       "rewardClaimed", "rewardClaimedAt", "createdAt", "updatedAt")
     SELECT ${trackingIdSql("$1", "n")}, $1, $2, r."id", ${seededAppUserIdSql("$1", "n")}, r."referralCode",
            $6::"TrackingStatus", $6 = 'Completed', CASE WHEN $6 = 'Completed' THEN now() END, now(), now()
     FROM generate_series($4::int, $4::int + $5::int - 1) AS n
     JOIN "AppUser" r ON r."id" = ${seededAppUserIdSql("$1", "(1 + (n - $4::int) % $3::int)")}`,
    [projectId, campaignId, referrers, first, count, input.status ?? "Pending"],
  );
  if (rowCount !== count) throw new Error(`Seeded ${rowCount} of ${count} tracking items (are ${referrers} referrers seeded?)`);
  return Array.from({ length: count }, (_, i) => ({
    trackingId: md5Uuid(`${projectId}:tracking:${first + i}`),
    refereeClientId: seededClientId(refereePrefix, first + i),
  }));
}

/**
 * A backlog of `count` due deliveries to one webhook, committed at once: Completed tracking items
 * (as a granted reward leaves them) and one Pending Delivery each, with the reward payload the app
 * would have written. Returns the delivery ids.
 */
export async function seedDeliveryBacklog(
  client: pg.Client,
  input: { projectId: string; campaignId: string; webhookId: string; referrers: number; count: number; first: number; refereePrefix: string },
): Promise<string[]> {
  await client.query("BEGIN");
  try {
    await seedPendingItems(client, { ...input, status: "Completed" });
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO "Delivery" ("id", "projectId", "webhookId", "trackingId", "referrerId", "refereeId", "eventName", "payload", "nextAttemptAt", "createdAt", "updatedAt")
       SELECT gen_random_uuid()::text, t."projectId", $2, t."id", t."referrerId", t."refereeId", 'purchase',
              jsonb_build_object('event', 'purchase', 'referrerId', r."clientProvidedId", 'refereeId', e."clientProvidedId",
                'rewardClaimedAt', t."rewardClaimedAt", 'trackingId', t."id", 'rewardStatus', 'Completed',
                'projectId', t."projectId", 'projectName', p."name", 'campaignId', t."campaignId"),
              now(), now(), now()
       FROM generate_series($3::int, $3::int + $4::int - 1) AS n
       JOIN "ReferralTracking" t ON t."id" = ${trackingIdSql("$1", "n")}
       JOIN "AppUser" r ON r."id" = t."referrerId"
       JOIN "AppUser" e ON e."id" = t."refereeId"
       JOIN "Project" p ON p."id" = t."projectId"
       RETURNING "id"`,
      [input.projectId, input.webhookId, input.first, input.count],
    );
    await client.query("COMMIT");
    return rows.map((r) => r.id);
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/** Where seedRewardHistory numbers its referees: far above the ranges the scenarios take (from 1,000,001 up). */
export const HISTORY_FIRST = 900_000_001;

/**
 * A program that has been running: `count` rewards already granted (Completed items with their
 * history row, Claimed event, activity entry, referrer's counter, and a delivery to `webhookId` that
 * succeeded on its first attempt), spread over the `referrers` seeded ones, as the app writes them.
 * Measured on empty history and outbox tables, a statement planned while they were empty keeps its
 * sequential scans as they grow under the load (a generic plan is kept until the next ANALYZE): the
 * first minute of a new installation, not what a running program pays.
 */
export async function seedRewardHistory(
  client: pg.Client,
  input: { projectId: string; campaignId: string; webhookId: string; referrers: number; count: number },
): Promise<void> {
  const first = HISTORY_FIRST;
  await seedPendingItems(client, { ...input, first, refereePrefix: "hist_", status: "Completed" });
  const items = `SELECT t.* FROM generate_series($2::int, $2::int + $3::int - 1) AS n JOIN "ReferralTracking" t ON t."id" = ${trackingIdSql("$1", "n")}`;
  const values = [input.projectId, first, input.count];
  await client.query(
    `INSERT INTO "RewardHistory" ("id", "projectId", "trackingId", "referrerId", "refereeId", "eventName", "environment", "claimedAt")
     SELECT gen_random_uuid()::text, t."projectId", t."id", t."referrerId", t."refereeId", 'purchase', 'Production', t."rewardClaimedAt" FROM (${items}) t`,
    values,
  );
  await client.query(
    `INSERT INTO "RewardEvent" ("id", "projectId", "trackingId", "eventName", "environment", "outcome", "createdAt")
     SELECT gen_random_uuid()::text, t."projectId", t."id", 'purchase', 'Production', 'Claimed', t."rewardClaimedAt" FROM (${items}) t`,
    values,
  );
  await client.query(
    `INSERT INTO "Activity" ("id", "projectId", "appUserId", "trackingId", "type", "description", "createdAt")
     SELECT gen_random_uuid()::text, t."projectId", t."referrerId", t."id", 'reward_claimed', 'An earlier reward.', t."rewardClaimedAt" FROM (${items}) t`,
    values,
  );
  await client.query(
    `WITH d AS (
       INSERT INTO "Delivery" ("id", "projectId", "webhookId", "trackingId", "referrerId", "refereeId", "eventName", "eventType", "payload", "status",
         "attemptCount", "nextAttemptAt", "lastAttemptAt", "lastHttpStatus", "createdAt", "updatedAt")
       SELECT gen_random_uuid()::text, t."projectId", $4, t."id", t."referrerId", t."refereeId", 'purchase', 'reward.granted',
              jsonb_build_object('event', 'purchase', 'trackingId', t."id", 'rewardStatus', 'Completed', 'projectId', t."projectId"),
              'Succeeded', 1, t."rewardClaimedAt", t."rewardClaimedAt", 200, t."rewardClaimedAt", t."rewardClaimedAt"
       FROM (${items}) t
       RETURNING "id", "projectId", "webhookId", "createdAt"
     )
     INSERT INTO "DeliveryAttempt" ("id", "projectId", "webhookId", "deliveryId", "attemptNumber", "eventType", "httpStatus", "responseTimeMs", "success", "createdAt")
     SELECT gen_random_uuid()::text, "projectId", "webhookId", "id", 1, 'reward.granted', 200, 3, true, "createdAt" FROM d`,
    [...values, input.webhookId],
  );
}
