/** Database invariants the drills check after the fault: each query lists violations (empty = holds). */
import type { DrillEnv } from "./environment";

export type Violation = { invariant: string; count: number; examples: unknown[] };

/** `counter: true` marks the AppUser counter checks, which only hold when every row came through the app. */
const INVARIANTS: { invariant: string; sql: string; counter?: true }[] = [
  {
    invariant: "every Completed item has exactly one RewardHistory row",
    sql: `SELECT t."id", count(h."id") AS n FROM "ReferralTracking" t LEFT JOIN "RewardHistory" h ON h."trackingId" = t."id"
          WHERE t."projectId" = $1 AND t."status" = 'Completed' GROUP BY t."id" HAVING count(h."id") <> 1`,
  },
  {
    invariant: "no RewardHistory row for an item that is not Completed",
    sql: `SELECT h."id", t."status" FROM "RewardHistory" h JOIN "ReferralTracking" t ON t."id" = h."trackingId" WHERE t."projectId" = $1 AND t."status" <> 'Completed'`,
  },
  {
    invariant: "every Completed item has one delivery per enabled webhook of its campaign",
    sql: `SELECT t."id", (SELECT count(*) FROM "Delivery" d WHERE d."trackingId" = t."id") AS deliveries,
                 (SELECT count(*) FROM "Webhook" w WHERE w."campaignId" = t."campaignId" AND w."enabled") AS webhooks
          FROM "ReferralTracking" t WHERE t."projectId" = $1 AND t."status" = 'Completed' AND t."rewardClaimed"
            AND (SELECT count(*) FROM "Delivery" d WHERE d."trackingId" = t."id")
                <> (SELECT count(*) FROM "Webhook" w WHERE w."campaignId" = t."campaignId" AND w."enabled")`,
  },
  {
    invariant: "no delivery for an item that is not Completed",
    sql: `SELECT d."id", t."status" FROM "Delivery" d JOIN "ReferralTracking" t ON t."id" = d."trackingId" WHERE t."projectId" = $1 AND t."status" <> 'Completed'`,
  },
  {
    invariant: "every Completed item has exactly one Claimed reward event",
    sql: `SELECT t."id", count(e."id") AS n FROM "ReferralTracking" t
          LEFT JOIN "RewardEvent" e ON e."trackingId" = t."id" AND e."outcome" = 'Claimed'
          WHERE t."projectId" = $1 AND t."status" = 'Completed' GROUP BY t."id" HAVING count(e."id") <> 1`,
  },
  {
    counter: true,
    invariant: "successfulReferrals (its counters row present, with its credits not yet folded) equals the referrer's RewardHistory rows",
    sql: `SELECT u."clientProvidedId", c."successfulReferrals", count(h."id") AS rewards FROM "AppUser" u LEFT JOIN "AppUserCounters" c ON c."appUserId" = u."id"
          LEFT JOIN "RewardHistory" h ON h."referrerId" = u."id" WHERE u."projectId" = $1 GROUP BY u."id", c."successfulReferrals"
          HAVING c."successfulReferrals" + (SELECT count(*) FROM "ReferralCredit" k WHERE k."appUserId" = u."id") IS DISTINCT FROM count(h."id")`,
  },
  {
    counter: true,
    invariant: "totalReferralsGiven equals the tracking items with the user as referrer",
    sql: `SELECT u."clientProvidedId", c."totalReferralsGiven", count(t."id") AS items FROM "AppUser" u LEFT JOIN "AppUserCounters" c ON c."appUserId" = u."id"
          LEFT JOIN "ReferralTracking" t ON t."referrerId" = u."id" WHERE u."projectId" = $1 GROUP BY u."id", c."totalReferralsGiven" HAVING c."totalReferralsGiven" IS DISTINCT FROM count(t."id")`,
  },
  {
    counter: true,
    invariant: "totalReferralsReceived equals the tracking items with the user as referee",
    sql: `SELECT u."clientProvidedId", u."totalReferralsReceived", count(t."id") AS items FROM "AppUser" u
          LEFT JOIN "ReferralTracking" t ON t."refereeId" = u."id" WHERE u."projectId" = $1 GROUP BY u."id" HAVING u."totalReferralsReceived" <> count(t."id")`,
  },
];

/** The invariants of the drill's project (rows seeded straight into the tables live in other projects). */
export async function rewardViolations(env: DrillEnv, options: { counters: boolean } = { counters: true }): Promise<Violation[]> {
  const violations: Violation[] = [];
  for (const { invariant, sql, counter } of INVARIANTS) {
    if (counter && !options.counters) continue;
    const rows = await env.query(sql, [env.project.id]);
    if (rows.length) violations.push({ invariant, count: rows.length, examples: rows.slice(0, 3) });
  }
  return violations;
}

export type DeliveryFacts = {
  deliveries: number;
  succeeded: number;
  pending: number;
  failed: number;
  maxAttemptCount: number;
  maxLoggedAttempt: number;
  /** Log entries of attempts whose worker died before recording them. */
  lostAttemptEntries: number;
};

export async function deliveryFacts(env: DrillEnv): Promise<DeliveryFacts> {
  const [row] = await env.query<Record<keyof DeliveryFacts, string>>(
    `SELECT count(*) AS deliveries,
            count(*) FILTER (WHERE "status" = 'Succeeded') AS succeeded,
            count(*) FILTER (WHERE "status" = 'Pending') AS pending,
            count(*) FILTER (WHERE "status" = 'Failed') AS failed,
            coalesce(max("attemptCount"), 0) AS "maxAttemptCount",
            (SELECT coalesce(max("attemptNumber"), 0) FROM "DeliveryAttempt") AS "maxLoggedAttempt",
            (SELECT count(*) FROM "DeliveryAttempt" WHERE "error" LIKE 'The worker sending this attempt stopped%') AS "lostAttemptEntries"
     FROM "Delivery"`,
  );
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)])) as DeliveryFacts;
}
