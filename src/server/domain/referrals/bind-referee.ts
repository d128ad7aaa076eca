import type { Prisma } from "@/generated/prisma/client";
import type { BindingRefusal } from "@/lib/schemas/referrals";
import { recordActivity } from "@/server/domain/activity/record-activity";
import { insertTracking } from "./insert-tracking";
import { prepared } from "@/server/db/prepared-statements";

/**
 * What a caller passes to say where a user came from. Today: the tracking id the web widget stored
 * (`svc_tracked_referral`) or, without one, the referral code (`svc_ref_code`). The mobile sources
 * (install referrer, clipboard token, deep link, fingerprint) resolve to one of these two with their
 * own method and confidence, then bind through the same code.
 */
export type AttributionToken =
  | { kind: "tracking"; referralTrackingId: string }
  | { kind: "code"; referralCode: string; rewardEventName: string | null };

export type Binding =
  /** The user is the item's referee: `newly` when this call made it so, else it already was (idempotent). */
  | { bound: true; trackingId: string; newly: boolean }
  | { bound: false; reason: BindingRefusal };

type Referee = { id: string; clientProvidedId: string };

/**
 * Makes `referee` the referee of the Pending item a token names, exactly once, in the caller's
 * transaction. Never binds a user to their own referral.
 *
 * - A tracking id binds that item if it has no referee yet: one conditional UPDATE (`refereeId IS
 *   NULL`), so of concurrent callers with one id exactly one binds; the others learn who holds it.
 * - A referral code alone binds through a new item, as the REST track call creates one, unless the
 *   user already is the referee of an item of that referrer (then that item: calling again binds
 *   nothing new). The user's row is locked first, so concurrent calls for one user create one item.
 *
 * The referee's totalReferralsReceived moves when they are bound.
 */
export async function bindReferee(tx: Prisma.TransactionClient, projectId: string, referee: Referee, token: AttributionToken): Promise<Binding> {
  return token.kind === "tracking" ? bindTracking(tx, projectId, referee, token.referralTrackingId) : bindCode(tx, projectId, referee, token);
}

async function bindTracking(tx: Prisma.TransactionClient, projectId: string, referee: Referee, trackingId: string): Promise<Binding> {
  const [taken] = await prepared<{ referrerId: string; referrerClientId: string }>(tx)`
    UPDATE "ReferralTracking" t SET "refereeId" = ${referee.id}, "updatedAt" = ${new Date()}
    FROM "AppUser" r
    WHERE t."id" = ${trackingId} AND t."projectId" = ${projectId} AND t."refereeId" IS NULL AND t."referrerId" <> ${referee.id}
      AND r."id" = t."referrerId"
    RETURNING t."referrerId", r."clientProvidedId" AS "referrerClientId"`;
  if (taken) {
    await tx.appUser.update({ where: { id: referee.id }, data: { totalReferralsReceived: { increment: 1 } } });
    await recordActivity(tx, {
      projectId,
      appUserId: taken.referrerId,
      trackingId,
      type: "referee_identified",
      description: `${referee.clientProvidedId} is the visitor who arrived through ${taken.referrerClientId}'s referral link.`,
    });
    return { bound: true, trackingId, newly: true };
  }
  // Nothing was bound: say why.
  const item = await tx.referralTracking.findFirst({ where: { id: trackingId, projectId }, select: { referrerId: true, refereeId: true } });
  if (!item) return { bound: false, reason: "unknown_referral" };
  if (item.refereeId === referee.id) return { bound: true, trackingId, newly: false };
  if (item.referrerId === referee.id) return { bound: false, reason: "self_referral" };
  return { bound: false, reason: "bound_to_another_user" };
}

async function bindCode(
  tx: Prisma.TransactionClient,
  projectId: string,
  referee: Referee,
  token: Extract<AttributionToken, { kind: "code" }>,
): Promise<Binding> {
  await tx.$queryRaw`SELECT 1 FROM "AppUser" WHERE "id" = ${referee.id} FOR UPDATE`;
  const referrer = await tx.appUser.findUnique({
    where: { projectId_referralCode: { projectId, referralCode: token.referralCode } },
    select: { id: true, clientProvidedId: true },
  });
  if (!referrer) return { bound: false, reason: "unknown_referral" };
  if (referrer.id === referee.id) return { bound: false, reason: "self_referral" };
  const existing = await tx.referralTracking.findFirst({
    where: { referrerId: referrer.id, refereeId: referee.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true },
  });
  if (existing) return { bound: true, trackingId: existing.id, newly: false };
  const tracked = await insertTracking(tx, {
    projectId,
    referralCode: token.referralCode,
    refereeId: referee.clientProvidedId,
    rewardEventName: token.rewardEventName,
  });
  if ("refused" in tracked) return { bound: false, reason: tracked.refused === "self_referral" ? "self_referral" : "unknown_referral" };
  return { bound: true, trackingId: tracked.inserted.referralTrackingId, newly: true };
}
