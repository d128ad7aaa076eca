import { Prisma, type RewardEnvironment } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { activityInsert } from "@/server/domain/activity/record-activity";
import { isUniqueViolation, isWriteConflict } from "@/server/domain/db-errors";
import type { DeliveryLease } from "@/server/domain/deliveries/claim-attempts";
import type { WrittenDelivery } from "@/server/domain/deliveries/outbox";
import { eventDeliveriesInsert, toOutboxWrite } from "@/server/domain/deliveries/insert-event-deliveries";
import { rewardGrantedEvent } from "@/server/domain/deliveries/insert-reward-deliveries";
import { rewardPayloadSql, type RewardPayload } from "@/server/domain/deliveries/reward-payload";
import type { ReferrerCaps } from "@/lib/schemas/reward-rules";
import { lockReferrer, reachedCap } from "@/server/domain/reward-rules/referrer-caps";
import { rulesOffSql } from "@/server/domain/reward-rules/judge-reward-rules";
import { rewardEventInsert } from "./record-reward-event";
import { failReward, failRewardIn, rejectFinalItem, REWARD_TX } from "./refuse-reward";
import { prepared } from "@/server/db/prepared-statements";
import { hasMilestones, milestoneParts, NO_MILESTONE_PARTS, noMilestonesSql, type MilestoneParts } from "@/server/domain/milestones/reach-milestones";
import { completesSql } from "./decide-reward";
import { ERASED_PARTY, isBound, loadRewardItem, readLoaded, rewardItemSelect, type LoadedRow, type RewardItemTarget } from "./load-reward-item";
import { DEFAULT_REWARD_EVENT_NAME, type GrantRewardResult, type RewardContext } from "./reward-context";

const MAX_CLAIM_ATTEMPTS = 3;

type Tx = Prisma.TransactionClient;

export type ClaimOptions = {
  /** The clock of the claim: its claimedAt, and the UTC day and month its caps count in. */
  now?: Date;
  /** The campaign's caps on the referrer's rewards (none: the claim is one statement, as without rules). */
  caps?: ReferrerCaps;
};

const capped = (caps: ReferrerCaps | undefined): caps is ReferrerCaps =>
  !!caps && (caps.perDay !== undefined || caps.perMonth !== undefined || caps.lifetime !== undefined);

/** The claim counts the referrer's rewards first: the campaign caps them, or reaches milestones by their count. */
const counting = (ctx: RewardContext, caps: ReferrerCaps | undefined) => capped(caps) || hasMilestones(ctx);

/**
 * The claim; when the campaign caps the referrer's rewards or sets milestones, in a transaction that
 * locks the referrer's counters row, then counts their rewards and claims or refuses
 * (referrer_cap_reached).
 */
export async function claimReward(db: Db, ctx: RewardContext, lease: DeliveryLease | null, options: ClaimOptions = {}): Promise<GrantRewardResult> {
  if (!counting(ctx, options.caps)) return claimOnce(db, ctx, lease, options.now ?? new Date());
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
 * The claim inside the caller's transaction (a review decision's, or claimReward's when it counts). A
 * unique index refusing the reward rolls back to a savepoint, so the item can still be failed in the
 * same transaction.
 */
export async function claimRewardIn(tx: Tx, ctx: RewardContext, lease: DeliveryLease | null, options: ClaimOptions = {}): Promise<GrantRewardResult> {
  const claimedAt = options.now ?? new Date();
  if (counting(ctx, options.caps)) await lockReferrer(tx, ctx.item.referrerId);
  if (capped(options.caps) && (await reachedCap(tx, ctx.item.referrerId, options.caps, claimedAt))) return failRewardIn(tx, ctx, "referrer_cap_reached");
  await tx.$executeRaw`SAVEPOINT claim`;
  let answer: ClaimAnswer;
  try {
    answer = await claimStatement(tx, decided(ctx, claimedAt, lease));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await tx.$executeRaw`ROLLBACK TO SAVEPOINT claim`;
    return failRewardIn(tx, ctx, await lostTo(tx, ctx));
  }
  return answer.claimed ? claimed(ctx, claimedAt, answer, lease) : rejectFinalItem(tx, ctx);
}

/** What claimIfEligible answers: the claim's result, or the item as loadRewardItem reads it, for grantReward's checks. */
export type EligibleClaim = { result: GrantRewardResult; loaded?: never } | { result?: never; loaded: ReturnType<typeof readLoaded> };

/**
 * The reward path's first statement: it reads the item as loadRewardItem does and, in the same
 * statement, claims it when nothing is left to decide (completesSql: every check decideReward makes
 * passes, and the campaign sets no reward rule and no milestone). That is one round trip instead of
 * two for the reward as most programs run it. Otherwise it answers the item's facts, for grantReward's
 * checks and claimReward. A claim that a unique index refuses, or that meets a write conflict, reads
 * the item again: the checks then see the reward that won.
 */
export async function claimIfEligible(
  db: Db,
  target: RewardItemTarget,
  reported: { eventName: string | null; refereeClientId: string | null; environment: RewardEnvironment | null },
  lease: DeliveryLease | null,
): Promise<EligibleClaim> {
  // decideReward's "complete" and grantReward's other conditions, for a campaign that sets no rule and no milestone.
  const gate = Prisma.sql`${completesSql(reported, target.now)} AND ${rulesOffSql(Prisma.sql`l."rewardRules"`)} AND ${noMilestonesSql(Prisma.sql`l."milestones"`)}`;
  let answer: ClaimAnswer;
  try {
    answer = await claimStatement(db, { target, eventName: reported.eventName, environment: reported.environment, gate, milestones: NO_MILESTONE_PARTS, claimedAt: target.now, lease });
  } catch (error) {
    if (!isUniqueViolation(error) && !isWriteConflict(error)) throw error;
    return { loaded: await loadRewardItem(db, target.organizationId, target.projectId, target.trackingId, target.now) };
  }
  const loaded = readLoaded(answer.facts);
  if (!answer.claimed) return { loaded };
  // The statement claims only an item with a referee (completesSql).
  if (!isBound(loaded.item)) throw new Error(`Tracking item ${loaded.item.id} was claimed without a referee.`);
  return { result: claimed({ project: loaded.project, item: loaded.item, environment: reported.environment }, target.now, answer, lease) };
}

const claimed = (ctx: Omit<RewardContext, "eventName">, claimedAt: Date, { payload, deliveries, milestones }: ClaimAnswer, lease: DeliveryLease | null): GrantRewardResult => {
  if (!payload) throw new Error(`The claim of tracking item ${ctx.item.id} wrote no payload.`);
  return {
    rewardClaimed: true,
    status: "Completed",
    referralTrackingId: ctx.item.id,
    rewardClaimedAt: claimedAt.toISOString(),
    written: { ...toOutboxWrite(rewardGrantedEvent(payload, ctx.environment, ctx.item), deliveries, lease), payload },
    // Not under the lease (its attempts carry the reward's body): the worker or Inngest takes them from the rows.
    ...(milestones.length
      ? { alsoWritten: [{ projectId: ctx.project.id, eventType: "milestone.reached", eventName: "milestone.reached", payload: null, deliveries: milestones, lease: null }] }
      : {}),
  };
};

/**
 * Completes the item: claims the reward and writes its history, counters and outbox. Concurrent claims
 * of the item, of one referee through several items, or of two users referring each other, end with
 * one winner: the others find the item final, or are refused by one of RewardHistory's unique indexes
 * (referee; unordered pair) and fail the item with the reason that index stands for. Under a lease,
 * the deliveries' first attempts are claimed with the reward, for the lease's worker to send.
 */
async function claimOnce(db: Db, ctx: RewardContext, lease: DeliveryLease | null, claimedAt: Date, attempt = 1): Promise<GrantRewardResult> {
  let answer: ClaimAnswer;
  try {
    answer = await claimStatement(db, decided(ctx, claimedAt, lease));
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
  return answer.claimed ? claimed(ctx, claimedAt, answer, lease) : rejectFinalItem(db, ctx);
}

/** Which farming rule a claim refused by a unique index ran into, read from the reward that won. */
async function lostTo(db: Db | Tx, { item }: RewardContext): Promise<"duplicate_referee" | "mutual_referral"> {
  const [row] = await prepared<{ refereeRewarded: boolean }>(db)`
    SELECT EXISTS (SELECT FROM "RewardHistory" WHERE "refereeId" = ${item.refereeId}) AS "refereeRewarded"`;
  return row?.refereeRewarded ? "duplicate_referee" : "mutual_referral";
}

/** The claim of an item its caller has decided on (every check passed, the caps counted): its one condition is that the item is still Pending. */
const decided = (ctx: RewardContext, claimedAt: Date, lease: DeliveryLease | null): ClaimSpec => ({
  target: { organizationId: ctx.project.organizationId, projectId: ctx.project.id, trackingId: ctx.item.id, now: claimedAt },
  eventName: ctx.eventName,
  environment: ctx.environment,
  gate: Prisma.sql`true`,
  milestones: milestoneParts(ctx, claimedAt),
  claimedAt,
  lease,
});

type ClaimSpec = {
  /** The item, read as loadRewardItem reads it (rewardItemSelect, `l`). */
  target: RewardItemTarget;
  /** The event name to record; null: the item's pre-assigned one, else the default (as grantReward names it). */
  eventName: string | null;
  environment: RewardEnvironment | null;
  /** The condition on `l` under which the item is claimed, besides being Pending. */
  gate: Prisma.Sql;
  /** The campaign's milestone parts (milestoneParts; NO_MILESTONE_PARTS when it has none). */
  milestones: MilestoneParts;
  claimedAt: Date;
  lease: DeliveryLease | null;
};

type ClaimRow = LoadedRow & {
  claimed: boolean;
  payload: RewardPayload | null;
  deliveries: WrittenDelivery[] | null;
  milestoneDeliveries: WrittenDelivery[] | null;
};

/** The item as rewardItemSelect read it (before the claim), whether the statement claimed it, and what it wrote to the outbox. */
type ClaimAnswer = { facts: LoadedRow; claimed: boolean; payload: RewardPayload | null; deliveries: WrittenDelivery[]; milestones: WrittenDelivery[] };

/**
 * The claim in one statement: the item read as loadRewardItem reads it (`l`); if `gate` allows, its
 * conditional Pending -> Completed, then, only if that took the item, its reward history (whose
 * deferred trigger credits the referrer at commit: referral-credits.ts) and the milestones the new
 * count reaches, one outbox row per routed webhook, the Claimed event and the activity entry, each
 * taking the parties, the event name and the payload from the item's row (`r`). A single statement
 * is atomic without an interactive transaction, which the reward path cannot afford: in Prisma's,
 * the same writes (six statements between BEGIN and COMMIT) cost about 4 ms of Node CPU per claim,
 * as one statement about 1 ms (bench/README.md).
 * Answers one row: the item's facts (all null without such a project), and what was written.
 */
async function claimStatement(db: Db | Tx, spec: ClaimSpec): Promise<ClaimAnswer> {
  const [row] = await prepared<ClaimRow>(db)`${claimSql(spec)}`;
  const { claimed, payload, deliveries, milestoneDeliveries, ...facts } = row!;
  return { facts, claimed, payload, deliveries: deliveries ?? [], milestones: milestoneDeliveries ?? [] };
}

function claimSql(spec: ClaimSpec): Prisma.Sql {
  const { target, claimedAt, environment } = spec;
  const onlyIf = Prisma.sql`EXISTS (SELECT FROM claimed)`;
  const gated = { at: claimedAt, onlyIf };
  const fromR = (column: string) => Prisma.sql`(SELECT ${Prisma.raw(`"${column}"`)} FROM r)`;
  const { milestones } = spec;
  const webhookOf = (rows: Prisma.Sql) => Prisma.sql`(SELECT json_agg(json_build_object('id', d."id", 'webhookId', d."webhookId", 'url', w."url", 'secretEncrypted', w."secretEncrypted",
        'previousSecretEncrypted', CASE WHEN w."previousSecretExpiresAt" > now() THEN w."previousSecretEncrypted" END))
        FROM (${rows}) d JOIN "Webhook" w ON w."id" = d."webhookId")`;
  return Prisma.sql`
    WITH l AS (${rewardItemSelect(target)}), r AS (
      SELECT l."id", l."projectId", l."projectName", l."campaignId", l."referrerId", l."refereeId",
        COALESCE(l."referrerClientId", ${ERASED_PARTY}) AS "referrerClientId", l."refereeClientId",
        COALESCE(CAST(${spec.eventName} AS text), l."rewardEventName", ${DEFAULT_REWARD_EVENT_NAME}) AS "eventName"
      FROM l WHERE l."id" IS NOT NULL AND ${spec.gate}
    ), claimed AS (
      UPDATE "ReferralTracking"
      SET "status" = 'Completed', "rewardClaimed" = true, "rewardClaimedAt" = ${claimedAt}, "updatedAt" = ${claimedAt}
      WHERE "id" = (SELECT "id" FROM r) AND "status" = 'Pending'
      RETURNING "id"
    ), history AS (
      INSERT INTO "RewardHistory" ("id", "projectId", "trackingId", "referrerId", "refereeId", "eventName", "environment", "claimedAt")
      SELECT gen_random_uuid()::text, r."projectId", r."id", r."referrerId", r."refereeId", r."eventName",
        CAST(${environment} AS "RewardEnvironment"), ${claimedAt}
      FROM claimed, r
      RETURNING "id"
    )${milestones.ctes}, payload AS (
      SELECT ${rewardPayloadSql(claimedAt)} AS "payload" FROM r
    ), deliveries AS (
      ${eventDeliveriesInsert(
        {
          type: "reward.granted",
          projectId: target.projectId,
          trackingId: target.trackingId,
          parties: { referrerId: fromR("referrerId"), refereeId: fromR("refereeId") },
          environment,
          eventNameSql: fromR("eventName"),
          payload: {},
          payloadSql: Prisma.sql`(SELECT "payload" FROM payload)`,
        },
        { ...gated, lease: spec.lease },
      )}
    ), event AS (
      ${rewardEventInsert({ projectId: target.projectId, trackingId: target.trackingId, eventName: fromR("eventName"), environment, outcome: "Claimed", reason: null }, gated)}
    ), activity AS (
      ${activityInsert(
        {
          projectId: target.projectId,
          appUserId: fromR("referrerId"),
          trackingId: target.trackingId,
          type: "reward_claimed",
          description: Prisma.sql`(SELECT format('%s earned a reward: %s completed "%s".', "referrerClientId", "refereeClientId", "eventName") FROM r)`,
        },
        gated,
      )}
    )
    SELECT l.*, ${onlyIf} AS "claimed", (SELECT "payload" FROM payload WHERE ${onlyIf}) AS "payload",
      ${webhookOf(Prisma.sql`SELECT "id", "webhookId" FROM deliveries`)} AS "deliveries",
      ${webhookOf(milestones.deliveries)} AS "milestoneDeliveries"
    FROM (SELECT) one LEFT JOIN l ON true`;
}
