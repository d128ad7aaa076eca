import type { AppType } from "@/generated/prisma/enums";
import { readMilestones, readPortalSettings, type FriendStatus, type ReferralSummary } from "@/lib/schemas/portal";
import type { Db } from "@/server/db/client";
import { readReferrerExperience } from "@/server/domain/campaigns/campaign-config";
import { notFound } from "@/server/domain/errors";
import { toPage, pageWindow, type PagingInput } from "@/server/domain/paging";
import { buildReferralLink } from "@/server/domain/referrals/build-referral-link";
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
    SELECT u."referralCode", COALESCE(k."successfulReferrals", 0) AS "successfulReferrals",
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
    sections.totals || sections.friends ? readTotals(db, appUserId) : null,
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

/** One pass over the referrer's items (their referrerId index). */
async function readTotals(db: Db, appUserId: string): Promise<NonNullable<ReferralSummary["totals"]>> {
  const [row] = await prepared<NonNullable<ReferralSummary["totals"]>>(db)`
    SELECT count(*)::int AS "arrived",
      count(*) FILTER (WHERE t."refereeId" IS NOT NULL OR t."refereeErased")::int AS "joined",
      count(*) FILTER (WHERE t."status" = 'Pending' AND t."refereeId" IS NOT NULL AND r."trackingId" IS NULL)::int AS "pending",
      count(r."trackingId")::int AS "beingChecked",
      count(*) FILTER (WHERE t."status" = 'Completed')::int AS "rewarded"
    FROM "ReferralTracking" t LEFT JOIN "RewardReview" r ON r."trackingId" = t."id"
    WHERE t."referrerId" = ${appUserId}`;
  return row!;
}

function readFriends(db: Db, appUserId: string, take: number, skip: number) {
  return prepared<FriendRow>(db)`
    SELECT t."status"::text AS "status", t."refereeId" IS NOT NULL AS "bound", t."refereeErased" AS "erased",
      EXISTS (SELECT FROM "RewardReview" r WHERE r."trackingId" = t."id") AS "inReview",
      u."clientProvidedId", u."attributes", t."createdAt", t."rewardClaimedAt"
    FROM "ReferralTracking" t LEFT JOIN "AppUser" u ON u."id" = t."refereeId"
    WHERE t."referrerId" = ${appUserId}
    ORDER BY t."createdAt" DESC, t."id" DESC
    LIMIT ${take} OFFSET ${skip}`;
}

async function readRewards(db: Db, appUserId: string): Promise<ReferralSummary["rewards"]> {
  const [[count], recent] = await Promise.all([
    prepared<{ count: number }>(db)`SELECT count(*)::int AS "count" FROM "RewardHistory" WHERE "referrerId" = ${appUserId}`,
    prepared<{ eventName: string | null; claimedAt: Date }>(db)`
      SELECT "eventName", "claimedAt" FROM "RewardHistory" WHERE "referrerId" = ${appUserId} ORDER BY "claimedAt" DESC, "id" DESC LIMIT 10`,
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
