import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { activityInsert } from "@/server/domain/activity/record-activity";
import { isUniqueViolation, isWriteConflict } from "@/server/domain/db-errors";
import type { DeliveryLease } from "@/server/domain/deliveries/claim-attempts";
import type { WrittenDelivery } from "@/server/domain/deliveries/outbox";
import { toOutboxWrite } from "@/server/domain/deliveries/insert-event-deliveries";
import { insertRewardDeliveries, rewardGrantedEvent } from "@/server/domain/deliveries/insert-reward-deliveries";
import { buildRewardPayload, type RewardPayload } from "@/server/domain/deliveries/reward-payload";
import type { ReferrerCaps } from "@/lib/schemas/reward-rules";
import { lockReferrer, reachedCap } from "@/server/domain/reward-rules/referrer-caps";
import { rewardEventInsert } from "./record-reward-event";
import { failReward, failRewardIn, rejectFinalItem, REWARD_TX } from "./refuse-reward";
import type { GrantRewardResult, RewardContext } from "./reward-context";
import { prepared } from "@/server/db/prepared-statements";
import { milestoneParts } from "@/server/domain/milestones/reach-milestones";

const MAX_CLAIM_ATTEMPTS = 3;

/** What the claim statement wrote to the outbox: the reward's deliveries, and its milestones' (milestone.reached). */
type Written = { deliveries: WrittenDelivery[]; milestones: WrittenDelivery[] };

type Tx = Prisma.TransactionClient;

export type ClaimOptions = {
  /** The clock of the claim: its claimedAt, and the UTC day and month its caps count in. */
  now?: Date;
  /** The campaign's caps on the referrer's rewards (none: the claim is one statement, as without rules). */
  caps?: ReferrerCaps;
};

const capped = (caps: ReferrerCaps | undefined): caps is ReferrerCaps =>
  !!caps && (caps.perDay !== undefined || caps.perMonth !== undefined || caps.lifetime !== undefined);

/**
 * The claim, with the referrer's caps when the campaign sets any: then in a transaction that locks
 * the referrer's counters row, counts their rewards and claims or refuses (referrer_cap_reached).
 */
export async function claimReward(db: Db, ctx: RewardContext, lease: DeliveryLease | null, options: ClaimOptions = {}): Promise<GrantRewardResult> {
  if (!capped(options.caps)) return claimOnce(db, ctx, lease, options.now ?? new Date());
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction((tx) => claimRewardIn(tx, ctx, lease, options), REWARD_TX);
    } catch (error) {
      if (isWriteConflict(error) && attempt < MAX_CLAIM_ATTEMPTS) continue;
      throw error;
    }
  }
}

/**
 * The claim inside the caller's transaction (a review decision's, or claimReward's under caps). A
 * unique index refusing the reward rolls back to a savepoint, so the item can still be failed in the
 * same transaction.
 */
export async function claimRewardIn(tx: Tx, ctx: RewardContext, lease: DeliveryLease | null, options: ClaimOptions = {}): Promise<GrantRewardResult> {
  const claimedAt = options.now ?? new Date();
  if (capped(options.caps)) {
    await lockReferrer(tx, ctx.item.referrerId);
    if (await reachedCap(tx, ctx.item.referrerId, options.caps, claimedAt)) return failRewardIn(tx, ctx, "referrer_cap_reached");
  }
  const payload = buildRewardPayload(ctx, claimedAt);
  await tx.$executeRaw`SAVEPOINT claim`;
  let written: Written | null;
  try {
    written = await claimStatement(tx, ctx, claimedAt, payload, lease);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await tx.$executeRaw`ROLLBACK TO SAVEPOINT claim`;
    return failRewardIn(tx, ctx, await lostTo(tx, ctx));
  }
  if (written === null) return rejectFinalItem(tx, ctx);
  return claimed(ctx, claimedAt, payload, written, lease);
}

const claimed = (ctx: RewardContext, claimedAt: Date, payload: RewardPayload, written: Written, lease: DeliveryLease | null): GrantRewardResult => ({
  rewardClaimed: true,
  status: "Completed",
  referralTrackingId: ctx.item.id,
  rewardClaimedAt: claimedAt.toISOString(),
  written: { ...toOutboxWrite(rewardGrantedEvent(payload, ctx.environment, ctx.item), written.deliveries, lease), payload },
  // Not under the lease (its attempts carry the reward's body): the worker or Inngest takes them from the rows.
  alsoWritten: written.milestones.length ? [{ projectId: ctx.project.id, eventType: "milestone.reached", eventName: "milestone.reached", payload: null, deliveries: written.milestones, lease: null }] : [],
});

/**
 * Completes the item: claims the reward and writes its history, counters and outbox. Concurrent claims
 * of the item, of one referee through several items, or of two users referring each other, end with
 * one winner: the others find the item final, or are refused by one of RewardHistory's unique indexes
 * (referee; unordered pair) and fail the item with the reason that index stands for. Under a lease,
 * the deliveries' first attempts are claimed with the reward, for the lease's worker to send.
 */
async function claimOnce(db: Db, ctx: RewardContext, lease: DeliveryLease | null, claimedAt: Date, attempt = 1): Promise<GrantRewardResult> {
  const payload = buildRewardPayload(ctx, claimedAt);
  let written: Written | null;
  try {
    written = await claimStatement(db, ctx, claimedAt, payload, lease);
  } catch (error) {
    // A concurrent completion of another item rewarded the referee, or the pair the other way round
    // (the item's own key cannot clash: the conditional update holds the row). The statement wrote
    // nothing; fail the item with the reason of the reward that won.
    if (isUniqueViolation(error)) return failReward(db, ctx, await lostTo(db, ctx));
    // Claims whose parties overlap (A refers B while B refers A) can lock the same users in opposite
    // orders; PostgreSQL aborts one whole statement, which is then simply run again.
    if (isWriteConflict(error) && attempt < MAX_CLAIM_ATTEMPTS) return claimOnce(db, ctx, lease, claimedAt, attempt + 1);
    throw error;
  }
  // A concurrent call completed or failed the item after it was read.
  if (written === null) return rejectFinalItem(db, ctx);
  return claimed(ctx, claimedAt, payload, written, lease);
}

/** Which farming rule a claim refused by a unique index ran into, read from the reward that won. */
async function lostTo(db: Db | Tx, { item }: RewardContext): Promise<"duplicate_referee" | "mutual_referral"> {
  const [row] = await prepared<{ refereeRewarded: boolean }>(db)`
    SELECT EXISTS (SELECT FROM "RewardHistory" WHERE "refereeId" = ${item.refereeId}) AS "refereeRewarded"`;
  return row?.refereeRewarded ? "duplicate_referee" : "mutual_referral";
}

/**
 * The claim in one statement: the item's conditional Pending -> Completed, then, only if that took the
 * item, its reward history, the referrer's successfulReferrals and the milestones that reaches, one outbox
 * row per routed webhook, the Claimed event and the activity entry. A single statement is atomic without an interactive transaction,
 * which the reward path cannot afford: in Prisma's, the same writes (six statements between BEGIN
 * and COMMIT) cost about 4 ms of Node CPU per claim, as one statement about 1 ms (bench/README.md).
 * Returns the deliveries written, or null when the item was no longer Pending.
 */
async function claimStatement(
  db: Db | Tx,
  ctx: RewardContext,
  claimedAt: Date,
  payload: RewardPayload,
  lease: DeliveryLease | null,
): Promise<Written | null> {
  const { project, item } = ctx;
  const onlyIf = Prisma.sql`EXISTS (SELECT FROM claimed)`;
  const gated = { at: claimedAt, onlyIf };
  const milestones = milestoneParts(ctx, claimedAt);
  const [row] = await prepared<{ claimed: boolean; deliveries: WrittenDelivery[] | null; milestoneDeliveries: WrittenDelivery[] | null }>(db)`
    WITH claimed AS (
      UPDATE "ReferralTracking"
      SET "status" = 'Completed', "rewardClaimed" = true, "rewardClaimedAt" = ${claimedAt}, "updatedAt" = ${claimedAt}
      WHERE "id" = ${item.id} AND "status" = 'Pending'
      RETURNING "id"
    ), history AS (
      INSERT INTO "RewardHistory" ("id", "projectId", "trackingId", "referrerId", "refereeId", "eventName", "environment", "claimedAt")
      SELECT gen_random_uuid()::text, ${project.id}, "id", ${item.referrerId}, ${item.refereeId}, ${ctx.eventName},
        CAST(${ctx.environment} AS "RewardEnvironment"), ${claimedAt}
      FROM claimed
      RETURNING "id"
    ), credited AS (
      -- Gated on the history row, so the referrer is locked only after the pair's unique key is taken:
      -- a second claim for the pair waits on that key holding no user lock (WITH parts run in no set
      -- order). No AppUser row is written: the counter is in AppUserCounters, and the referee's
      -- referredBy is read from this history row.
      UPDATE "AppUserCounters" SET "successfulReferrals" = "successfulReferrals" + 1
      WHERE "appUserId" = ${item.referrerId} AND EXISTS (SELECT FROM history)
      RETURNING "successfulReferrals"
    )${milestones.ctes}, deliveries AS (
      ${insertRewardDeliveries(payload, ctx.environment, item, { ...gated, lease })}
    ), event AS (
      ${rewardEventInsert({ projectId: project.id, trackingId: item.id, eventName: ctx.eventName, environment: ctx.environment, outcome: "Claimed", reason: null }, gated)}
    ), activity AS (
      ${activityInsert(
        {
          projectId: project.id,
          appUserId: item.referrerId,
          trackingId: item.id,
          type: "reward_claimed",
          description: `${item.referrerClientId} earned a reward: ${item.refereeClientId} completed "${ctx.eventName}".`,
        },
        gated,
      )}
    )
    SELECT ${onlyIf} AS "claimed",
      (SELECT json_agg(json_build_object('id', d."id", 'webhookId', d."webhookId", 'url', w."url", 'secretEncrypted', w."secretEncrypted",
        'previousSecretEncrypted', CASE WHEN w."previousSecretExpiresAt" > now() THEN w."previousSecretEncrypted" END))
        FROM deliveries d JOIN "Webhook" w ON w."id" = d."webhookId") AS "deliveries",
      (SELECT json_agg(json_build_object('id', d."id", 'webhookId', d."webhookId", 'url', w."url", 'secretEncrypted', w."secretEncrypted",
        'previousSecretEncrypted', CASE WHEN w."previousSecretExpiresAt" > now() THEN w."previousSecretEncrypted" END))
        FROM (${milestones.deliveries}) d JOIN "Webhook" w ON w."id" = d."webhookId") AS "milestoneDeliveries"`;
  return row?.claimed ? { deliveries: row.deliveries ?? [], milestones: row.milestoneDeliveries ?? [] } : null;
}
