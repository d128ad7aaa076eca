import { Prisma } from "@/generated/prisma/client";
import type { AppType } from "@/generated/prisma/enums";
import { readMilestones, readPortalSettings, type FriendStatus, type ReferralSummary } from "@/lib/schemas/portal";
import type { Db } from "@/server/db/client";
import { readReferrerExperience } from "@/server/domain/campaigns/campaign-config";
import { notFound } from "@/server/domain/errors";
import { toPage, pageWindow, type PagingInput } from "@/server/domain/paging";
import { buildReferralLink } from "@/server/domain/referrals/build-referral-link";
import { successfulReferralsOf } from "@/server/domain/referrals/referral-credits";
import { prepared } from "@/server/db/prepared-statements";

export type SummaryTarget = {
  project: { id: string; appType: AppType; referralRedirectLink: string | null };
  appUserId: string;
  /** The origin of Mobile projects' landing-page links. */
  publicOrigin: string;
};

/** How a masked friend reads: the first character of their name (or id) and dots. */
const MASK = "•••";
const ERASED = "(erased)";

type UserRow = {
  referralCode: string;
  successfulReferrals: number;
  referrerExperience: unknown;
  milestones: unknown;
  portal: unknown;
};

type FriendRow = {
  status: "Pending" | "Completed" | "Failed";
  bound: boolean;
  erased: boolean;
  inReview: boolean;
  clientProvidedId: string | null;
  attributes: Record<string, unknown> | null;
  createdAt: Date;
  rewardClaimedAt: Date | null;
};

/**
 * The referrer's own view of their referrals, the one source of the hosted portal page, the widget's
 * "Your referrals" view and the mobile client's getReferralSummary(): their link, totals, a page of
 * their referred friends (newest first; names masked unless the campaign names a display attribute),
 * rewards earned and milestone progress. Sections the campaign hides are null (not read). The user
 * must be in the project (callers have authenticated both); else "not found".
 */
export async function getReferralSummary(db: Db, target: SummaryTarget, paging: PagingInput): Promise<ReferralSummary> {
  const { project, appUserId } = target;
  const [user] = await prepared<UserRow>(db)`
    SELECT u."referralCode", ${successfulReferralsOf(Prisma.raw(`u."id"`), Prisma.raw("k"))} AS "successfulReferrals",
      c."referrerExperience", c."milestones", c."portal"
    FROM "AppUser" u
    LEFT JOIN "AppUserCounters" k ON k."appUserId" = u."id"
    LEFT JOIN "Campaign" c ON c."projectId" = u."projectId"
    WHERE u."id" = ${appUserId} AND u."projectId" = ${project.id}`;
  if (!user) throw notFound("App user");
  const settings = readPortalSettings(user.portal);
  const { sections } = settings;
  const experience = readReferrerExperience(user.referrerExperience);
  const window = pageWindow(paging);

  const [totals, friends, rewards, reached] = await Promise.all([
    sections.totals || sections.friends ? readTotals(db, project.id, appUserId) : null,
    sections.friends ? readFriends(db, appUserId, window.pageSize, window.skip) : null,
    sections.rewards ? readRewards(db, appUserId) : null,
    sections.milestones ? prepared<{ referrals: number; reachedAt: Date }>(db)`SELECT "referrals", "reachedAt" FROM "MilestoneReached" WHERE "appUserId" = ${appUserId}` : null,
  ]);

  let milestones: ReferralSummary["milestones"] = null;
  if (reached) {
    const at = new Map(reached.map((r) => [r.referrals, r.reachedAt]));
    const items = readMilestones(user.milestones).map((m) => ({ ...m, reached: at.has(m.referrals), reachedAt: at.get(m.referrals)?.toISOString() ?? null }));
    const next = items.find((m) => !m.reached && m.referrals > user.successfulReferrals);
    milestones = {
      successfulReferrals: user.successfulReferrals,
      items,
      next: next ? { referrals: next.referrals, name: next.name, remaining: next.referrals - user.successfulReferrals } : null,
    };
  }

  return {
    referralCode: user.referralCode,
    referralLink: buildReferralLink(project, user.referralCode, null, target.publicOrigin),
    campaign: {
      title: experience.modal.modalTitle,
      description: experience.modal.modalDescription,
      themeColor: experience.theme.themeColor,
      backgroundColor: experience.theme.backgroundColor,
      sections,
    },
    totals: sections.totals ? totals : null,
    friends: friends && totals ? toPage(friends.map((f) => toFriend(f, settings.friendNameAttribute)), window, totals.arrived) : null,
    rewards,
    milestones,
  };
}

/**
 * One range of the referrer's summary index (ReferralTracking_referrer_summary_idx), the statuses read
 * from the rows (no index holds the status, so that a claim is written in place); the items in review
 * from the project's review queue (a review exists only for a Pending item with its referee, so those
 * are taken out of "pending").
 */
async function readTotals(db: Db, projectId: string, appUserId: string): Promise<NonNullable<ReferralSummary["totals"]>> {
  const [[row], [review]] = await Promise.all([
    prepared<Omit<NonNullable<ReferralSummary["totals"]>, "beingChecked">>(db)`
      SELECT count(*)::int AS "arrived",
        count(*) FILTER (WHERE "refereeId" IS NOT NULL OR "refereeErased")::int AS "joined",
        count(*) FILTER (WHERE "status" = 'Pending' AND "refereeId" IS NOT NULL)::int AS "pending",
        count(*) FILTER (WHERE "status" = 'Completed')::int AS "rewarded"
      FROM "ReferralTracking" WHERE "referrerId" = ${appUserId}`,
    prepared<{ beingChecked: number }>(db)`
      SELECT count(*)::int AS "beingChecked" FROM "RewardReview" r JOIN "ReferralTracking" t ON t."id" = r."trackingId"
      WHERE r."projectId" = ${projectId} AND t."referrerId" = ${appUserId}`,
  ]);
  return { ...row!, pending: row!.pending - review!.beingChecked, beingChecked: review!.beingChecked };
}

/** The page's ids from the summary index alone (a deep page skips index entries only), then their rows. */
function readFriends(db: Db, appUserId: string, take: number, skip: number) {
  return prepared<FriendRow>(db)`
    WITH page AS (
      SELECT "id", "createdAt" FROM "ReferralTracking" WHERE "referrerId" = ${appUserId}
      ORDER BY "createdAt" DESC, "id" DESC LIMIT ${take} OFFSET ${skip}
    )
    SELECT t."status"::text AS "status", t."refereeId" IS NOT NULL AS "bound", t."refereeErased" AS "erased",
      EXISTS (SELECT FROM "RewardReview" r WHERE r."trackingId" = t."id") AS "inReview",
      u."clientProvidedId", u."attributes", t."createdAt", t."rewardClaimedAt"
    FROM page p JOIN "ReferralTracking" t ON t."id" = p."id" LEFT JOIN "AppUser" u ON u."id" = t."refereeId"
    ORDER BY p."createdAt" DESC, p."id" DESC`;
}

/**
 * The count from RewardHistory's (referrerId, refereeId) key alone; the latest ten rewarded referrals
 * (newest arrivals first) along the summary index, with their rewards' event names.
 */
async function readRewards(db: Db, appUserId: string): Promise<ReferralSummary["rewards"]> {
  const [[count], recent] = await Promise.all([
    prepared<{ count: number }>(db)`SELECT count(*)::int AS "count" FROM "RewardHistory" WHERE "referrerId" = ${appUserId}`,
    prepared<{ eventName: string | null; claimedAt: Date }>(db)`
      WITH latest AS (
        SELECT "id", "createdAt" FROM "ReferralTracking" WHERE "referrerId" = ${appUserId} AND "status" = 'Completed'
        ORDER BY "createdAt" DESC, "id" DESC LIMIT 10
      )
      SELECT h."eventName", h."claimedAt" FROM latest l JOIN "RewardHistory" h ON h."trackingId" = l."id"
      ORDER BY l."createdAt" DESC, l."id" DESC`,
  ]);
  return { count: count!.count, recent: recent.map((r) => ({ eventName: r.eventName, claimedAt: r.claimedAt.toISOString() })) };
}

function friendStatus(f: FriendRow): FriendStatus {
  if (f.status === "Completed") return "rewarded";
  if (f.status === "Failed") return "not_rewarded";
  if (f.inReview) return "being_checked";
  return f.bound ? "pending" : "arrived";
}

/** The display attribute's value when the campaign names one and the friend has it; else masked. */
function friendName(f: FriendRow, attribute: string | null): { name: string; masked: boolean } {
  if (f.erased) return { name: ERASED, masked: true };
  const shown = attribute ? f.attributes?.[attribute] : undefined;
  if (typeof shown === "string" && shown.trim()) return { name: shown, masked: false };
  const source = (typeof f.attributes?.name === "string" && f.attributes.name.trim()) || f.clientProvidedId;
  // An arrival not signed up yet has no name at all.
  return { name: source ? `${[...source.trim()][0]!.toUpperCase()}${MASK}` : "Friend", masked: true };
}

const toFriend = (f: FriendRow, attribute: string | null) => ({
  ...friendName(f, attribute),
  status: friendStatus(f),
  arrivedAt: f.createdAt.toISOString(),
  rewardedAt: f.rewardClaimedAt?.toISOString() ?? null,
});
