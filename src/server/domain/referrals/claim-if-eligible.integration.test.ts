import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMilestones } from "@/lib/schemas/portal";
import { readRewardRules, setsNoRule } from "@/lib/schemas/reward-rules";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { claimIfEligible } from "@/server/domain/referrals/claim-reward";
import { decideReward } from "@/server/domain/referrals/decide-reward";
import { grantReward } from "@/server/domain/referrals/grant-reward";
import { isBound, loadRewardItem } from "@/server/domain/referrals/load-reward-item";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { metrics } from "@/server/observability/metrics";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";
import { DAY_MS, uniqueName as uid } from "@/test/names";

/*
 * The reward path claims in its first statement only when nothing is left to decide (completesSql,
 * rulesOffSql, noMilestonesSql); otherwise grantReward's checks decide from the facts that statement
 * read. The two are written apart, in SQL and in TypeScript, so each case here sets up one fact, asks
 * the JavaScript side what it would do, and holds the statement to the same answer: it claims exactly
 * when decideReward completes, the item is bound, not in review, the call names no other referee, and
 * the campaign sets no rule and no milestone. A case it does not claim writes nothing.
 */
let t: TestDb;
let f: OrgWithProject;

beforeAll(async () => {
  t = await createTestDb();
  f = await createOrgWithProject(t.db);
  await t.db.webhook.create({
    data: { projectId: f.project.id, campaignId: f.campaign.id, name: "hook", url: "https://hooks.example.com/r", secretEncrypted: "ciphertext", secretHint: "abcd" },
  });
});
afterAll(() => t?.drop());

type Case = {
  name: string;
  /** Sets up the item (and whatever else the case needs); answers its tracking id. */
  setup: () => Promise<string>;
  report?: { eventName?: string; refereeId?: string };
  /** The campaign's stored rewardRules, attributionModel and milestones for the case (reset after). */
  campaign?: { rewardRules?: object; milestones?: object[]; attributionModel?: "first" | "last" };
  /** What the JavaScript side does with it, spelled out: a case whose answer moves is a test that moved. */
  claims: boolean;
};

async function track(opts: { referrer?: string; referee?: string | null; rewardEventName?: string } = {}) {
  const { user } = await getOrCreateAppUser(t.db, f.project.id, { clientProvidedId: opts.referrer ?? uid("referrer") });
  const referee = opts.referee === null ? undefined : (opts.referee ?? uid("referee"));
  const tracked = await trackReferral(t.db, f.org.id, f.project.id, { referralCode: user.referralCode, refereeId: referee, rewardEventName: opts.rewardEventName });
  return tracked.referralTrackingId;
}
const ENDS = { Completed: {}, Failed: { failureReason: "expired" }, Revoked: { revokedAt: new Date() } } as const;
const setStatus = (id: string, status: keyof typeof ENDS) => t.db.referralTracking.update({ where: { id }, data: { status, ...ENDS[status] } });
const age = (id: string, ms: number) => t.db.referralTracking.update({ where: { id }, data: { createdAt: new Date(Date.now() - ms) } });
const rewarded = async (id: string) => expect((await grantReward(t.db, f.org.id, f.project.id, { referralTrackingId: id })).rewardClaimed).toBe(true);

const plainRules = { maxRewardsPerReferrer: {}, disposableEmail: "off", sameDevice: "off", holdDays: 0 };

const cases: Case[] = [
  { name: "a Pending, bound item of a plain campaign", setup: () => track(), claims: true },
  { name: "the same, reported with its referee and an event", setup: () => track({ referee: "named-referee" }), report: { refereeId: "named-referee", eventName: "purchase" }, claims: true },
  { name: "an item whose pre-assigned event is the reported one", setup: () => track({ rewardEventName: "purchase" }), report: { eventName: "purchase" }, claims: true },
  { name: "an item whose pre-assigned event is another", setup: () => track({ rewardEventName: "signup" }), report: { eventName: "purchase" }, claims: false },
  { name: "a Completed item", setup: async () => { const id = await track(); await setStatus(id, "Completed"); return id; }, claims: false },
  { name: "a Failed item", setup: async () => { const id = await track(); await setStatus(id, "Failed"); return id; }, claims: false },
  { name: "a Revoked item", setup: async () => { const id = await track(); await setStatus(id, "Revoked"); return id; }, claims: false },
  { name: "an item without a referee", setup: () => track({ referee: null }), claims: false },
  { name: "an item without a referee, reported with one (bound by the checks, not here)", setup: () => track({ referee: null }), report: { refereeId: uid("late") }, claims: false },
  { name: "an item reported for another referee", setup: () => track(), report: { refereeId: "someone-else" }, claims: false },
  { name: "an item one day inside its window", setup: async () => { const id = await track(); await age(id, 29 * DAY_MS); return id; }, claims: true },
  { name: "an item past its window", setup: async () => { const id = await track(); await age(id, 31 * DAY_MS); return id; }, claims: false },
  {
    name: "a referee rewarded through another referrer",
    setup: async () => { const referee = uid("referee"); await rewarded(await track({ referee })); return track({ referee }); },
    claims: false,
  },
  {
    // Only the checks see it: RewardHistory's unique keys leave grandfathered rewards out.
    name: "a referee rewarded before the farming rules (grandfathered)",
    setup: async () => {
      const referee = uid("referee");
      const earlier = await track({ referee });
      await rewarded(earlier);
      await t.db.rewardHistory.update({ where: { trackingId: earlier }, data: { grandfathered: true } });
      return track({ referee });
    },
    claims: false,
  },
  {
    name: "a pair rewarded the other way round",
    setup: async () => { const a = uid("a"); const b = uid("b"); await rewarded(await track({ referrer: a, referee: b })); return track({ referrer: b, referee: a }); },
    claims: false,
  },
  {
    name: "a later arrival while the first is open (first model)",
    setup: async () => { const referee = uid("referee"); const first = await track({ referee }); await age(first, 1000); return track({ referee }); },
    claims: false,
  },
  {
    name: "the first arrival while a later one is open (first model)",
    setup: async () => { const referee = uid("referee"); const first = await track({ referee }); await age(first, 1000); await track({ referee }); return first; },
    claims: true,
  },
  {
    name: "an earlier arrival while a later one is open (last model)",
    campaign: { attributionModel: "last" },
    setup: async () => { const referee = uid("referee"); const first = await track({ referee }); await age(first, 1000); await track({ referee }); return first; },
    claims: false,
  },
  {
    name: "the latest arrival while an earlier is open (last model)",
    campaign: { attributionModel: "last" },
    setup: async () => { const referee = uid("referee"); const first = await track({ referee }); await age(first, 1000); return track({ referee }); },
    claims: true,
  },
  {
    name: "an item in the review queue",
    setup: async () => {
      const id = await track();
      await t.db.rewardReview.create({ data: { trackingId: id, projectId: f.project.id, eventName: "purchase", reasons: ["hold"] } });
      return id;
    },
    claims: false,
  },
  { name: "a campaign whose rules are stored, all off", campaign: { rewardRules: plainRules }, setup: () => track(), claims: true },
  { name: "a campaign with a cap", campaign: { rewardRules: { ...plainRules, maxRewardsPerReferrer: { lifetime: 50 } } }, setup: () => track(), claims: false },
  { name: "a campaign reviewing disposable e-mail", campaign: { rewardRules: { ...plainRules, disposableEmail: "review" } }, setup: () => track(), claims: false },
  { name: "a campaign blocking the same device", campaign: { rewardRules: { ...plainRules, sameDevice: "block" } }, setup: () => track(), claims: false },
  { name: "a campaign holding rewards", campaign: { rewardRules: { ...plainRules, holdDays: 3 } }, setup: () => track(), claims: false },
  { name: "a campaign with milestones", campaign: { milestones: [{ referrals: 5, name: "Five" }] }, setup: () => track(), claims: false },
  {
    name: "an erased referrer",
    setup: async () => {
      const referrer = uid("referrer");
      const id = await track({ referrer });
      // As an erasure leaves it (its referrer gone); its Pending status is left here on purpose.
      await t.db.appUser.delete({ where: { projectId_clientProvidedId: { projectId: f.project.id, clientProvidedId: referrer } } });
      return id;
    },
    claims: false,
  },
];

/** What the TypeScript side would do with the item: claim at once (no other statement decides first)? */
async function wouldClaimAtOnce(trackingId: string, report: Case["report"] = {}, now: Date) {
  const { item, referrerErased } = await loadRewardItem(t.db, f.org.id, f.project.id, trackingId, now);
  if (referrerErased || !isBound(item) || item.inReview) return false;
  if (report.refereeId !== undefined && report.refereeId !== item.refereeClientId) return false;
  const rules = readRewardRules(item.rewardRules);
  if (!setsNoRule(rules) || readMilestones(item.milestones).length) return false;
  return decideReward({ ...item, item, eventName: report.eventName ?? null, now }).kind === "complete";
}

describe("the reward's first statement and grantReward's checks give the same answer", () => {
  it.each(cases)("$name", async ({ setup, report = {}, campaign = {}, claims }) => {
    await t.db.campaign.update({
      where: { id: f.campaign.id },
      data: { rewardRules: campaign.rewardRules ?? {}, milestones: campaign.milestones ?? [], attributionModel: campaign.attributionModel ?? "first" },
    });
    const trackingId = await setup();
    const now = new Date();
    expect(await wouldClaimAtOnce(trackingId, report, now)).toBe(claims);

    const before = await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } });
    const target = { organizationId: f.org.id, projectId: f.project.id, trackingId, now };
    const first = await claimIfEligible(t.db, target, { eventName: report.eventName ?? null, refereeClientId: report.refereeId ?? null, environment: null }, null);
    expect(first.result?.rewardClaimed ?? false).toBe(claims);
    const history = await t.db.rewardHistory.count({ where: { trackingId } });
    const deliveries = await t.db.delivery.count({ where: { trackingId } });
    if (claims) {
      expect([history, deliveries]).toEqual([1, 1]);
      return;
    }
    // Declined: the facts come back as loadRewardItem reads them, and nothing was written.
    expect(first.loaded).toEqual(await loadRewardItem(t.db, f.org.id, f.project.id, trackingId, now));
    expect([history, deliveries]).toEqual([0, 0]);
    expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).toEqual(before);
  });
});

describe("a campaign with a rule or a milestone: its rewards read the item first", () => {
  const counted = async () => {
    const counts = new Map((await metrics.rewardFirstStatements.get()).values.map((v) => [v.labels.result, v.value]));
    return (result: string) => counts.get(result) ?? 0;
  };

  it("after one declined first statement, until the campaign sets neither or a minute has passed", async () => {
    const g = await createOrgWithProject(t.db);
    const item = async () => {
      const { user } = await getOrCreateAppUser(t.db, g.project.id, { clientProvidedId: uid("referrer") });
      return (await trackReferral(t.db, g.org.id, g.project.id, { referralCode: user.referralCode, refereeId: uid("referee") })).referralTrackingId;
    };
    const reward = async (at = new Date()) => {
      const before = await counted();
      const outcome = await grantReward(t.db, g.org.id, g.project.id, { referralTrackingId: await item() }, null, at);
      const after = await counted();
      expect(outcome.rewardClaimed).toBe(true);
      return ["claimed", "declined", "skipped"].find((r) => after(r) === before(r) + 1);
    };
    const milestones = (list: object[]) => t.db.campaign.update({ where: { id: g.campaign.id }, data: { milestones: list } });

    expect(await reward()).toBe("claimed");
    await milestones([{ referrals: 100, name: "Hundred" }]);
    expect(await reward()).toBe("declined");
    expect(await reward()).toBe("skipped");
    // A minute on, the first statement is tried again (and declines again).
    expect(await reward(new Date(Date.now() + 61_000))).toBe("declined");
    // Read without milestones, the campaign clears the hint: the next reward claims in one statement.
    await milestones([]);
    expect(await reward()).toBe("skipped");
    expect(await reward()).toBe("claimed");
  });
});
