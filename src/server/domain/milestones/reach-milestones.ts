import { Prisma } from "@/generated/prisma/client";
import { readMilestones } from "@/lib/schemas/portal";
import { eventDeliveriesInsert, type CatalogueEvent } from "@/server/domain/deliveries/insert-event-deliveries";
import { successfulReferralsOf } from "@/server/domain/referrals/referral-credits";
import type { RewardContext } from "@/server/domain/referrals/reward-context";

/**
 * The reward claim's statement parts for milestones (claim-reward.ts): `credited`, the referrer's
 * count with this reward, read after their counters row's lock; `reached`, the INSERT of the
 * campaign's milestones that count reaches; and the `milestone.reached` event of the highest of
 * them, its deliveries written by the event catalogue's one writer, gated on that milestone's row
 * being inserted by this statement and on no higher one being inserted with it.
 *
 * Exactly once per referrer and milestone: the counter's row lock, taken before the claim's
 * statement (claimRewardIn), orders concurrent milestone claims, and MilestoneReached's (appUserId,
 * referrals) key makes a second claim at or past a milestone insert nothing (so it writes no event
 * either), also after a revoked reward lowered the count. A milestone added to the campaign later,
 * below a referrer's count, is recorded as reached by their next reward; that reward's event names
 * the highest milestone it reached (a delivery is one per webhook, tracking item and type). Each
 * reward adds one successful referral, so otherwise a reward reaches at most one.
 */
export function milestoneParts(ctx: RewardContext, claimedAt: Date): MilestoneParts {
  const { project, item } = ctx;
  const milestones = readMilestones(item.milestones);
  // The count as the claim's transaction reads it after locking the referrer's counters row
  // (claimRewardIn): the previous milestone claim's credit is committed by then, and the statement's
  // snapshot, taken after the lock, sees the counter and its credits as one. This claim's own credit
  // is written by the history row's trigger at commit, so a transaction claims one reward
  // (decideReviews: one transaction per item): a second would read the count without the first's.
  const referrals = successfulReferralsOf(Prisma.sql`${item.referrerId}`, Prisma.raw("c"));
  const credited = Prisma.sql`
      SELECT ${referrals} + 1 AS "successfulReferrals" FROM "AppUserCounters" c
      WHERE c."appUserId" = ${item.referrerId} AND EXISTS (SELECT FROM history)`;
  const reached = Prisma.sql`
      INSERT INTO "MilestoneReached" ("id", "projectId", "appUserId", "referrals", "name", "trackingId", "reachedAt")
      SELECT gen_random_uuid()::text, ${project.id}, ${item.referrerId}, m."referrals", m."name", ${item.id}, ${claimedAt}
      FROM credited, jsonb_to_recordset(${JSON.stringify(milestones)}::jsonb) AS m("referrals" int, "name" text)
      WHERE m."referrals" <= credited."successfulReferrals"
      ON CONFLICT ("appUserId", "referrals") DO NOTHING
      RETURNING "referrals"`;
  const events = milestones.map((m, i) => {
    const event: CatalogueEvent = {
      type: "milestone.reached",
      projectId: project.id,
      trackingId: item.id,
      parties: { referrerId: item.referrerId, refereeId: item.refereeId },
      environment: ctx.environment,
      payload: {
        projectId: project.id,
        milestone: { referrals: m.referrals, name: m.name },
        referrer: { uniqueId: item.referrerId, clientProvidedId: item.referrerClientId },
        referralTrackingId: item.id,
        reachedAt: claimedAt.toISOString(),
      },
    };
    // The highest milestone this statement reached: a reward carries one event of a type per webhook.
    const onlyIf = Prisma.sql`EXISTS (SELECT FROM reached WHERE "referrals" = ${m.referrals}::int) AND NOT EXISTS (SELECT FROM reached WHERE "referrals" > ${m.referrals}::int)`;
    return { name: Prisma.raw(`milestone_event_${i}`), insert: eventDeliveriesInsert(event, { at: claimedAt, onlyIf }) };
  });
  if (!events.length) return NO_MILESTONE_PARTS;
  return {
    ctes: Prisma.sql`, credited AS (${credited}), reached AS (${reached}), ${Prisma.join(events.map((e) => Prisma.sql`${e.name} AS (${e.insert})`), ", ")}`,
    deliveries: Prisma.join(events.map((e) => Prisma.sql`SELECT "id", "webhookId" FROM ${e.name}`), " UNION ALL "),
  };
}

export type MilestoneParts = {
  /**
   * `, reached AS (...), milestone_event_0 AS (...), ...`; nothing for a campaign without milestones
   * (a modifying part costs its table's indexes opened at every claim, even when it writes no row).
   */
  ctes: Prisma.Sql;
  /** The rows of the events' deliveries, for the statement's answer (or none). */
  deliveries: Prisma.Sql;
};

/** The campaign sets milestones: its claims count the referrer's rewards (in a transaction, after lockReferrer). */
export const hasMilestones = (ctx: Pick<RewardContext, "item">) => readMilestones(ctx.item.milestones).length > 0;

/** The parts of a campaign without milestones. */
export const NO_MILESTONE_PARTS: MilestoneParts = { ctes: Prisma.empty, deliveries: Prisma.sql`SELECT NULL::text AS "id", NULL::text AS "webhookId" WHERE false` };

/** The stored milestones (a jsonb expression) are none: the claim that reads its item in its own statement adds no milestone parts. */
export const noMilestonesSql = (milestones: Prisma.Sql) => Prisma.sql`COALESCE(${milestones} = '[]', true)`;
