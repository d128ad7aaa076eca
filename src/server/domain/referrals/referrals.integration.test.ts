import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebhookEnvironment } from "@/generated/prisma/client";
import { createAppUser } from "@/server/domain/app-users/create-app-user";
import { getAppUserByClientId } from "@/server/domain/app-users/get-app-user-by-client-id";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { updateCampaign } from "@/server/domain/campaigns/update-campaign";
import { createReferralLink } from "@/server/domain/referrals/create-referral-link";
import { grantReward } from "@/server/domain/referrals/grant-reward";
import { listAppUserReferrals } from "@/server/domain/referrals/list-app-user-referrals";
import { listReferrals } from "@/server/domain/referrals/list-referrals";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import type { z } from "zod";
import { appUserReferralsQuery, linkBody, referralListQuery, rewardBody, trackBody } from "@/lib/schemas/referrals";
import { createTestDb, type TestDb } from "@/test/db";
import { DAY_MS as DAY, uniqueName as uid } from "@/test/names";
import { domainError } from "@/test/expect";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";

let t: TestDb;
let main: OrgWithProject;
let foreign: OrgWithProject;

beforeAll(async () => {
  t = await createTestDb();
  main = await createOrgWithProject(t.db);
  foreign = await createOrgWithProject(t.db);
});
afterAll(() => t?.drop());


/** A referrer and a tracked arrival of a fresh referee in the given project. */
async function tracked(f: OrgWithProject = main, opts: { rewardEventName?: string; referrer?: string; referee?: string } = {}) {
  const referrerId = opts.referrer ?? uid("referrer");
  const { user: referrer } = await getOrCreateAppUser(t.db, f.project.id, { clientProvidedId: referrerId });
  const refereeId = opts.referee ?? uid("referee");
  const track = await trackReferral(t.db, f.org.id, f.project.id, {
    referralCode: referrer.referralCode,
    refereeId,
    rewardEventName: opts.rewardEventName,
  });
  return { referrerId, refereeId, referralCode: referrer.referralCode, trackingId: track.referralTrackingId, track };
}

/** Reports an event as the reward endpoint would: the body parsed by its schema. */
const grant = (trackingId: string, input: Omit<z.input<typeof rewardBody>, "referralTrackingId"> & { refereeId?: string } = {}, f = main) => {
  const { refereeId, ...body } = input;
  return grantReward(t.db, f.org.id, f.project.id, { ...rewardBody.parse({ referralTrackingId: trackingId, ...body }), refereeId }).then(
    ({ written, ...outcome }) => ({ ...outcome, deliveryIds: written?.deliveries.map((d) => d.id) ?? [] }),
  );
};

/** Spreads tracked items a second apart in the given order (arrivals in one millisecond would tie). */
async function inOrder(...trackingIds: string[]) {
  for (const [i, id] of trackingIds.entries()) {
    await t.db.referralTracking.update({ where: { id }, data: { createdAt: new Date(Date.now() - (trackingIds.length - i) * 1000) } });
  }
}

const webhook = (f: OrgWithProject, environment: WebhookEnvironment, enabled = true) =>
  t.db.webhook.create({
    data: {
      projectId: f.project.id,
      campaignId: f.campaign.id,
      name: `${environment} ${enabled ? "on" : "off"}`,
      url: "https://hooks.example.com/" + environment,
      secretEncrypted: "ciphertext",
      secretHint: "abcd",
      enabled,
      environment,
    },
  });

const ORIGIN = "https://go.referloop.example";

describe("createReferralLink", () => {
  it("builds the link from the redirect link and the referrer's code", async () => {
    const user = await createAppUser(t.db, main.org.id, main.project.id, { clientProvidedId: "linker" });
    const link = await createReferralLink(t.db, main.org.id, main.project.id, { referrerId: "linker" }, ORIGIN);
    expect(link).toEqual({
      referralLink: `https://app.example.com/join?referralCode=${user.referralCode}`,
      referralCode: user.referralCode,
      referrerId: "linker",
      rewardEventName: null,
    });
    const withEvent = await createReferralLink(t.db, main.org.id, main.project.id, {
      referrerId: "linker",
      rewardEventName: "first purchase",
    }, ORIGIN);
    expect(withEvent.referralLink).toBe(
      `https://app.example.com/join?referralCode=${user.referralCode}&rewardEventName=first%20purchase`,
    );
  });

  it("is invalid without a redirect link on the project", async () => {
    const f = await createOrgWithProject(t.db);
    await t.db.project.update({ where: { id: f.project.id }, data: { referralRedirectLink: null } });
    await createAppUser(t.db, f.org.id, f.project.id, { clientProvidedId: "u" });
    const error = await domainError(createReferralLink(t.db, f.org.id, f.project.id, { referrerId: "u" }, ORIGIN));
    expect(error.kind).toBe("invalid");
    expect(error.message).toMatch(/redirect link/);
  });

  it("points a Mobile project's link at its hosted landing page, which needs no redirect link", async () => {
    const f = await createOrgWithProject(t.db, { appType: "Mobile" });
    await t.db.project.update({ where: { id: f.project.id }, data: { referralRedirectLink: null } });
    const user = await createAppUser(t.db, f.org.id, f.project.id, { clientProvidedId: "u" });
    const link = await createReferralLink(t.db, f.org.id, f.project.id, { referrerId: "u", rewardEventName: "signup" }, ORIGIN);
    expect(link.referralLink).toBe(`${ORIGIN}/r/${f.project.id}/${user.referralCode}?rewardEventName=signup`);
  });

  it("is not_found for an unknown referrer or a foreign project, invalid for blank input", async () => {
    expect((await domainError(createReferralLink(t.db, main.org.id, main.project.id, { referrerId: "nobody" }, ORIGIN))).kind).toBe("not_found");
    expect((await domainError(createReferralLink(t.db, foreign.org.id, main.project.id, { referrerId: "linker" }, ORIGIN))).kind).toBe("not_found");
    expect(linkBody.safeParse({ referrerId: " " }).error?.issues[0]?.path).toEqual(["referrerId"]);
    expect(linkBody.safeParse({ referrerId: "linker", rewardEventName: "" }).error?.issues[0]?.path).toEqual(["rewardEventName"]);
  });
});

describe("trackReferral", () => {
  it("creates a Pending item, creates the unknown referee, and counts the arrival", async () => {
    await updateCampaign(t.db, main.org.id, main.project.id, { newUserExperience: { promoText: "Welcome, friend!" } });
    const { referrerId, refereeId, trackingId, track } = await tracked(main, { rewardEventName: "purchase" });
    expect(track).toMatchObject({
      referralTrackingId: trackingId,
      status: "Pending",
      referrerId,
      refereeId,
      rewardEventName: "purchase",
      rewardClaimed: false,
      failureReason: null,
      rewardClaimedAt: null,
      promotionalText: "Welcome, friend!",
    });
    expect(trackingId).toMatch(/^[0-9a-f-]{36}$/);
    const referrer = await getAppUserByClientId(t.db, main.org.id, main.project.id, referrerId);
    const referee = await getAppUserByClientId(t.db, main.org.id, main.project.id, refereeId);
    expect(referrer).toMatchObject({ totalReferralsGiven: 1, successfulReferrals: 0 });
    expect(referee).toMatchObject({ totalReferralsReceived: 1, referredBy: null });
    expect(referee.lastSeenAt).not.toBeNull();
    const activity = await t.db.activity.findMany({ where: { projectId: main.project.id, appUserId: referrer.uniqueId } });
    expect(activity.map((a) => a.type).sort()).toEqual(["referral_tracked", "user_created"]);
  });

  it("reuses an existing referee and lets several arrivals be tracked", async () => {
    const first = await tracked(main);
    const second = await tracked(main, { referrer: first.referrerId, referee: first.refereeId });
    expect(second.trackingId).not.toBe(first.trackingId);
    const referee = await getAppUserByClientId(t.db, main.org.id, main.project.id, first.refereeId);
    expect(referee.totalReferralsReceived).toBe(2);
    expect((await getAppUserByClientId(t.db, main.org.id, main.project.id, first.referrerId)).totalReferralsGiven).toBe(2);
  });

  it("refuses self-referral as invalid", async () => {
    const { referrerId, referralCode } = await tracked(main);
    const error = await domainError(
      trackReferral(t.db, main.org.id, main.project.id, { referralCode, refereeId: referrerId }),
    );
    expect(error).toMatchObject({ kind: "invalid", issues: [{ field: "refereeId", rule: "self_referral" }] });
  });

  it("is not_found for an unknown code, a code of another project, or a foreign organisation", async () => {
    const { referralCode } = await tracked(main);
    const track = (f: OrgWithProject, project: string, code: string) =>
      domainError(trackReferral(t.db, f.org.id, project, { referralCode: code, refereeId: "x" }));
    expect((await track(main, main.project.id, "ZZZZZZ")).kind).toBe("not_found");
    const swapped = [...referralCode].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("");
    if (swapped !== referralCode) expect((await track(main, main.project.id, swapped)).kind).toBe("not_found");
    expect((await track(foreign, foreign.project.id, referralCode)).kind).toBe("not_found");
    expect((await track(foreign, main.project.id, referralCode)).kind).toBe("not_found");
  });

  it("rejects blank code, blank referee and blank event name", async () => {
    const { referralCode } = await tracked(main);
    const bad = [
      { referralCode: "", refereeId: "x" },
      { referralCode, refereeId: "" },
      { referralCode, refereeId: "x", rewardEventName: " " },
    ];
    for (const input of bad) expect(trackBody.safeParse(input).success).toBe(false);
  });
});

describe("grantReward: completion", () => {
  it("completes the item with history, counters, referredBy, outbox rows, event and activity", async () => {
    const f = await createOrgWithProject(t.db);
    const hooks = {
      sandbox: await webhook(f, "Sandbox"),
      production: await webhook(f, "Production"),
      both: await webhook(f, "Both"),
      disabled: await webhook(f, "Both", false),
    };
    const { referrerId, refereeId, trackingId } = await tracked(f);
    const result = await grant(trackingId, { eventName: "signup" }, f);
    expect(result).toEqual({
      rewardClaimed: true,
      status: "Completed",
      referralTrackingId: trackingId,
      rewardClaimedAt: expect.any(String),
      deliveryIds: expect.any(Array),
    });
    const item = await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } });
    expect(item).toMatchObject({ status: "Completed", rewardClaimed: true, failureReason: null });
    expect(item.rewardClaimedAt!.toISOString()).toBe(result.rewardClaimedAt);
    const history = await t.db.rewardHistory.findMany({ where: { trackingId } });
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ eventName: "signup", environment: null });

    const referrer = await getAppUserByClientId(t.db, f.org.id, f.project.id, referrerId);
    const referee = await getAppUserByClientId(t.db, f.org.id, f.project.id, refereeId);
    expect(referrer).toMatchObject({ totalReferralsGiven: 1, successfulReferrals: 1, totalReferralsReceived: 0 });
    expect(referee).toMatchObject({ totalReferralsReceived: 1, referredBy: referrerId });

    const deliveries = await t.db.delivery.findMany({ where: { trackingId } });
    expect(deliveries.map((d) => d.webhookId).sort()).toEqual([hooks.sandbox.id, hooks.production.id, hooks.both.id].sort());
    expect(deliveries[0]!.payload).toEqual({
      event: "signup",
      referrerId,
      refereeId,
      rewardClaimedAt: result.rewardClaimedAt,
      trackingId,
      rewardStatus: "Completed",
      projectId: f.project.id,
      projectName: f.project.name,
      campaignId: f.campaign.id,
    });
    expect([...result.deliveryIds].sort()).toEqual(deliveries.map((d) => d.id).sort());

    const events = await t.db.rewardEvent.findMany({ where: { trackingId } });
    expect(events).toMatchObject([{ outcome: "Claimed", eventName: "signup", reason: null }]);
    const activity = await t.db.activity.findFirst({ where: { projectId: f.project.id, type: "reward_claimed" } });
    expect(activity?.description).toContain(referrerId);
  });

  it.each([
    ["Sandbox", "Sandbox", ["Sandbox", "Both"]],
    ["production", "Production", ["Production", "Both"]],
    [undefined, null, ["Sandbox", "Production", "Both"]],
  ] as const)("routes environment %s (%s) to %j webhooks", async (environment, stored, expected) => {
    const f = await createOrgWithProject(t.db);
    for (const env of ["Sandbox", "Production", "Both"] as const) await webhook(f, env);
    const { trackingId } = await tracked(f);
    await grant(trackingId, { environment }, f);
    const deliveries = await t.db.delivery.findMany({ where: { trackingId }, select: { webhookId: true } });
    const hooks = await t.db.webhook.findMany({ where: { id: { in: deliveries.map((d) => d.webhookId) } } });
    expect(deliveries.map((d) => hooks.find((w) => w.id === d.webhookId)?.environment).sort()).toEqual([...expected].sort());
    const history = await t.db.rewardHistory.findUniqueOrThrow({ where: { trackingId } });
    expect(history.environment).toBe(stored);
  });

  it("names the webhook event: the reported name, else the link's event, else 'reward'", async () => {
    const f = await createOrgWithProject(t.db);
    await webhook(f, "Both");
    const eventOf = async (trackingId: string) =>
      (await t.db.delivery.findFirstOrThrow({ where: { trackingId } })).eventName;
    const linked = await tracked(f, { rewardEventName: "purchase" });
    await grant(linked.trackingId, {}, f);
    expect(await eventOf(linked.trackingId)).toBe("purchase");
    const plain = await tracked(f);
    await grant(plain.trackingId, {}, f);
    expect(await eventOf(plain.trackingId)).toBe("reward");
  });

  it("completes without webhooks, with no deliveries to hand to the scheduler", async () => {
    const f = await createOrgWithProject(t.db);
    const { trackingId } = await tracked(f);
    expect(await grant(trackingId, {}, f)).toMatchObject({ rewardClaimed: true, deliveryIds: [] });
  });
});

describe("grantReward: eligibility", () => {
  it("does not claim an already Completed item twice, and leaves it unchanged", async () => {
    const f = await createOrgWithProject(t.db);
    await webhook(f, "Both");
    const { trackingId, referrerId } = await tracked(f);
    const first = await grant(trackingId, {}, f);
    const second = await grant(trackingId, { eventName: "again" }, f);
    expect(second).toEqual({ rewardClaimed: false, status: "Completed", reason: "already_completed", referralTrackingId: trackingId, deliveryIds: [] });
    const item = await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } });
    expect(item.rewardClaimedAt!.toISOString()).toBe(first.rewardClaimedAt);
    expect(await t.db.rewardHistory.count({ where: { trackingId } })).toBe(1);
    expect(await t.db.delivery.count({ where: { trackingId } })).toBe(1);
    expect((await getAppUserByClientId(t.db, f.org.id, f.project.id, referrerId)).successfulReferrals).toBe(1);
    const events = await t.db.rewardEvent.findMany({ where: { trackingId }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => [e.outcome, e.reason])).toEqual([
      ["Claimed", null],
      ["Rejected", "already_completed"],
    ]);
  });

  it("keeps a pre-assigned event exact and case-sensitive; a different event is recorded and the item stays Pending", async () => {
    const f = await createOrgWithProject(t.db);
    await webhook(f, "Both");
    const { trackingId } = await tracked(f, { rewardEventName: "purchase" });
    for (const eventName of ["Purchase", "signup"]) {
      expect(await grant(trackingId, { eventName }, f)).toEqual({
        rewardClaimed: false,
        status: "Pending",
        reason: "event_mismatch",
        referralTrackingId: trackingId,
        deliveryIds: [],
      });
    }
    expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).toMatchObject({ status: "Pending" });
    expect(await t.db.delivery.count({ where: { trackingId } })).toBe(0);
    const recorded = await t.db.rewardEvent.findMany({ where: { trackingId, outcome: "Recorded" } });
    expect(recorded.map((e) => e.eventName).sort()).toEqual(["Purchase", "signup"]);
    expect(await t.db.activity.count({ where: { projectId: f.project.id, type: "event_recorded" } })).toBe(2);
    expect((await grant(trackingId, { eventName: "purchase" }, f)).rewardClaimed).toBe(true);
  });

  it("lets any event claim an item without a pre-assigned event", async () => {
    const { trackingId } = await tracked(main);
    expect((await grant(trackingId, { eventName: "whatever-happened" })).rewardClaimed).toBe(true);
  });

  it("fails a second item for the same referrer and referee with duplicate_referee, without webhooks", async () => {
    const f = await createOrgWithProject(t.db);
    await webhook(f, "Both");
    const first = await tracked(f);
    const second = await tracked(f, { referrer: first.referrerId, referee: first.refereeId });
    await inOrder(first.trackingId, second.trackingId);
    expect((await grant(first.trackingId, {}, f)).rewardClaimed).toBe(true);
    expect(await grant(second.trackingId, {}, f)).toEqual({
      rewardClaimed: false,
      status: "Failed",
      reason: "duplicate_referee",
      referralTrackingId: second.trackingId,
      deliveryIds: [],
    });
    expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: second.trackingId } })).toMatchObject({
      status: "Failed",
      failureReason: "duplicate_referee",
      rewardClaimed: false,
      rewardClaimedAt: null,
    });
    expect(await t.db.delivery.count({ where: { trackingId: second.trackingId } })).toBe(0);
    expect((await getAppUserByClientId(t.db, f.org.id, f.project.id, first.referrerId)).successfulReferrals).toBe(1);
    expect(await t.db.activity.count({ where: { projectId: f.project.id, type: "reward_rejected" } })).toBe(1);
    // A Failed item is final.
    expect(await grant(second.trackingId, {}, f)).toMatchObject({ status: "Failed", reason: "already_failed" });
  });

  it("a referee completes one referral per project: a second referrer's item fails duplicate_referee once the first completed", async () => {
    const a = await tracked(main);
    const b = await tracked(main, { referee: a.refereeId });
    await inOrder(a.trackingId, b.trackingId);
    expect((await grant(a.trackingId)).rewardClaimed).toBe(true);
    expect(await grant(b.trackingId)).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "duplicate_referee" });
    expect((await getAppUserByClientId(t.db, main.org.id, main.project.id, a.refereeId)).referredBy).toBe(a.referrerId);
    expect((await getAppUserByClientId(t.db, main.org.id, main.project.id, b.referrerId)).successfulReferrals).toBe(0);
  });

  it("first arrival wins by default: a later arrival is tracked, and its reward fails not_first_arrival while the first is open", async () => {
    const f = await createOrgWithProject(t.db);
    const first = await tracked(f);
    const later = await tracked(f, { referee: first.refereeId });
    const again = await tracked(f, { referrer: first.referrerId, referee: first.refereeId });
    await inOrder(first.trackingId, later.trackingId, again.trackingId);
    expect(later.track.status).toBe("Pending");
    for (const item of [later, again]) {
      expect(await grant(item.trackingId, {}, f)).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "not_first_arrival" });
    }
    expect((await grant(first.trackingId, {}, f)).rewardClaimed).toBe(true);
    const referee = await getAppUserByClientId(t.db, f.org.id, f.project.id, first.refereeId);
    expect(referee).toMatchObject({ totalReferralsReceived: 3, referredBy: first.referrerId });
  });

  it("an expired first arrival no longer holds the referral: a later one can complete", async () => {
    const f = await createOrgWithProject(t.db);
    const stale = await tracked(f);
    await t.db.referralTracking.update({ where: { id: stale.trackingId }, data: { createdAt: new Date(Date.now() - 31 * DAY) } });
    const fresh = await tracked(f, { referee: stale.refereeId });
    expect((await grant(fresh.trackingId, {}, f)).rewardClaimed).toBe(true);
    expect(await grant(stale.trackingId, {}, f)).toMatchObject({ status: "Failed", reason: "expired" });
  });

  it("with attributionModel last, the latest open arrival completes and earlier ones fail not_last_arrival", async () => {
    const f = await createOrgWithProject(t.db);
    await updateCampaign(t.db, f.org.id, f.project.id, { attributionModel: "last" });
    const first = await tracked(f);
    const last = await tracked(f, { referee: first.refereeId });
    await inOrder(first.trackingId, last.trackingId);
    expect(await grant(first.trackingId, {}, f)).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "not_last_arrival" });
    expect((await grant(last.trackingId, {}, f)).rewardClaimed).toBe(true);
    expect((await getAppUserByClientId(t.db, f.org.id, f.project.id, first.refereeId)).referredBy).toBe(last.referrerId);
  });

  it("mutual referral fails: B referring A after A was rewarded for referring B", async () => {
    const f = await createOrgWithProject(t.db);
    const aToB = await tracked(f);
    expect((await grant(aToB.trackingId, {}, f)).rewardClaimed).toBe(true);
    const bToA = await tracked(f, { referrer: aToB.refereeId, referee: aToB.referrerId });
    expect(await grant(bToA.trackingId, {}, f)).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "mutual_referral" });
    expect(await t.db.rewardHistory.count({ where: { projectId: f.project.id } })).toBe(1);
  });

  it("fails self-referral items (e.g. tracked before the track-time check)", async () => {
    const user = await createAppUser(t.db, main.org.id, main.project.id, { clientProvidedId: uid("self") });
    const item = await t.db.referralTracking.create({
      data: {
        projectId: main.project.id,
        campaignId: main.campaign.id,
        referrerId: user.uniqueId,
        refereeId: user.uniqueId,
        referralCode: user.referralCode,
      },
    });
    expect(await grant(item.id)).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "self_referral" });
    expect(await t.db.rewardHistory.count({ where: { trackingId: item.id } })).toBe(0);
  });

  it("fails an item older than the attribution window with expired; the window is per campaign", async () => {
    const f = await createOrgWithProject(t.db);
    const old = await tracked(f);
    await t.db.referralTracking.update({ where: { id: old.trackingId }, data: { createdAt: new Date(Date.now() - 31 * DAY) } });
    expect(await grant(old.trackingId, {}, f)).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "expired" });
    expect((await t.db.referralTracking.findUniqueOrThrow({ where: { id: old.trackingId } })).failureReason).toBe("expired");

    const within = await tracked(f);
    await t.db.referralTracking.update({ where: { id: within.trackingId }, data: { createdAt: new Date(Date.now() - 29 * DAY) } });
    expect((await grant(within.trackingId, {}, f)).rewardClaimed).toBe(true);

    await updateCampaign(t.db, f.org.id, f.project.id, { attributionWindowDays: 60 });
    const longer = await tracked(f);
    await t.db.referralTracking.update({ where: { id: longer.trackingId }, data: { createdAt: new Date(Date.now() - 45 * DAY) } });
    expect((await grant(longer.trackingId, {}, f)).rewardClaimed).toBe(true);
  });

  it("checks the reported referee against the item's referee", async () => {
    const { trackingId, refereeId } = await tracked(main);
    const error = await domainError(grant(trackingId, { refereeId: "someone-else" }));
    expect(error).toMatchObject({ kind: "conflict" });
    expect(error.message).toContain(refereeId);
    expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).toMatchObject({ status: "Pending" });
    expect(await t.db.appUser.count({ where: { projectId: main.project.id, clientProvidedId: "someone-else" } })).toBe(0);
    expect((await grant(trackingId, { refereeId })).rewardClaimed).toBe(true);
  });

  describe("an item tracked without a referee", () => {
    async function anonymous() {
      const referrerId = uid("anon-referrer");
      const { user } = await getOrCreateAppUser(t.db, main.project.id, { clientProvidedId: referrerId });
      const track = await trackReferral(t.db, main.org.id, main.project.id, { referralCode: user.referralCode });
      expect(track).toMatchObject({ refereeId: null, refereeUniqueId: null, status: "Pending" });
      return { referrerId, trackingId: track.referralTrackingId };
    }

    it("without a referee to bind, records the event (referee_unknown) and leaves the item Pending", async () => {
      const { trackingId } = await anonymous();
      expect(await grant(trackingId, {})).toMatchObject({ rewardClaimed: false, status: "Pending", reason: "referee_unknown" });
      expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).toMatchObject({ status: "Pending", refereeId: null });
      expect(await t.db.rewardEvent.findMany({ where: { trackingId } })).toEqual([expect.objectContaining({ outcome: "Recorded", reason: "referee_unknown" })]);
      expect(await t.db.delivery.count({ where: { trackingId } })).toBe(0);
    });

    it("binds the reported referee (created on first sight) and claims in the same call", async () => {
      const { referrerId, trackingId } = await anonymous();
      const refereeId = uid("late-referee");
      expect(await grant(trackingId, { refereeId, eventName: "purchase" })).toMatchObject({ rewardClaimed: true, status: "Completed" });
      const referee = await getAppUserByClientId(t.db, main.org.id, main.project.id, refereeId);
      expect(referee).toMatchObject({ totalReferralsReceived: 1, referredBy: referrerId });
      expect((await getAppUserByClientId(t.db, main.org.id, main.project.id, referrerId)).totalReferralsGiven).toBe(1);
      expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).toMatchObject({ refereeId: referee.uniqueId });
      // Bound now: another user is refused, the same one finds it final.
      expect((await domainError(grant(trackingId, { refereeId: "someone-else" }))).kind).toBe("conflict");
      expect(await grant(trackingId, { refereeId })).toMatchObject({ rewardClaimed: false, reason: "already_completed" });
    });

    it("never binds the referrer: self_referral, the item stays Pending for its real referee", async () => {
      const { referrerId, trackingId } = await anonymous();
      expect(await grant(trackingId, { refereeId: referrerId })).toMatchObject({ rewardClaimed: false, status: "Pending", reason: "self_referral" });
      expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).toMatchObject({ status: "Pending", refereeId: null });
      expect(await t.db.rewardEvent.findFirst({ where: { trackingId } })).toMatchObject({ outcome: "Rejected", reason: "self_referral" });
      expect((await getAppUserByClientId(t.db, main.org.id, main.project.id, referrerId)).totalReferralsReceived).toBe(0);
      expect((await grant(trackingId, { refereeId: uid("real") })).rewardClaimed).toBe(true);
    });
  });

  it("is not_found for unknown ids and ids of other projects or organisations", async () => {
    const { trackingId } = await tracked(main);
    const sibling = await t.db.project.create({
      data: { organizationId: main.org.id, name: "sibling", appType: "Web", secretHash: uid("h"), secretPrefix: "sk_", publishableKey: uid("pk_") },
    });
    expect((await domainError(grant("00000000-0000-0000-0000-000000000000"))).kind).toBe("not_found");
    expect((await domainError(grant("not-a-uuid"))).kind).toBe("not_found");
    expect((await domainError(grantReward(t.db, main.org.id, sibling.id, { referralTrackingId: trackingId }))).kind).toBe("not_found");
    expect((await domainError(grantReward(t.db, foreign.org.id, foreign.project.id, { referralTrackingId: trackingId }))).kind).toBe("not_found");
    expect((await domainError(grantReward(t.db, foreign.org.id, main.project.id, { referralTrackingId: trackingId }))).kind).toBe("not_found");
    expect(await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).toMatchObject({ status: "Pending" });
  });

  it("the reward schema rejects a bad environment, a blank event name and a blank tracking id", () => {
    const field = (body: z.input<typeof rewardBody>) => rewardBody.safeParse(body).error?.issues[0]?.path;
    expect(field({ referralTrackingId: "t", environment: "Staging" })).toEqual(["environment"]);
    expect(field({ referralTrackingId: "t", eventName: "" })).toEqual(["eventName"]);
    expect(field({ referralTrackingId: "" })).toEqual(["referralTrackingId"]);
  });
});

describe("listReferrals and listAppUserReferrals", () => {
  let f: OrgWithProject;
  let people: Awaited<ReturnType<typeof tracked>>[];
  beforeAll(async () => {
    f = await createOrgWithProject(t.db);
    const first = await tracked(f, { referrer: "alice", rewardEventName: "purchase" });
    people = [first];
    for (let i = 0; i < 4; i++) people.push(await tracked(f, { referrer: "alice" }));
    people.push(await tracked(f, { referrer: "bob", referee: first.refereeId }));
    await grant(people[1]!.trackingId, {}, f);
    await t.db.referralTracking.update({ where: { id: people[2]!.trackingId }, data: { createdAt: new Date(Date.now() - 40 * DAY) } });
    await grant(people[2]!.trackingId, {}, f);
  });

  it("lists newest first with parties, status and failure reason, filtered by status", async () => {
    const all = await listReferrals(t.db, f.org.id, f.project.id, referralListQuery.parse({}));
    expect(all).toMatchObject({ totalCount: 6, page: 1, pageSize: 20, hasNextPage: false });
    const times = all.items.map((i) => Date.parse(i.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.items.find((i) => i.referralTrackingId === people[0]!.trackingId)).toMatchObject({
      referrerId: "alice",
      refereeId: people[0]!.refereeId,
      rewardEventName: "purchase",
      status: "Pending",
    });
    const completed = await listReferrals(t.db, f.org.id, f.project.id, referralListQuery.parse({ status: "completed" }));
    expect(completed.items).toMatchObject([{ referralTrackingId: people[1]!.trackingId, rewardClaimed: true }]);
    expect(completed.items[0]!.rewardClaimedAt).not.toBeNull();
    const failed = await listReferrals(t.db, f.org.id, f.project.id, referralListQuery.parse({ status: "Failed" }));
    expect(failed.items).toMatchObject([{ referralTrackingId: people[2]!.trackingId, failureReason: "expired" }]);
    const paged = await listReferrals(t.db, f.org.id, f.project.id, referralListQuery.parse({ status: "Pending", pageSize: 3, page: 2 }));
    expect(paged).toMatchObject({ totalCount: 4, hasNextPage: false });
    expect(paged.items).toHaveLength(1);
  });

  it("lists one user's referrals given and received", async () => {
    const alice = await getAppUserByClientId(t.db, f.org.id, f.project.id, "alice");
    const given = await listAppUserReferrals(t.db, f.org.id, f.project.id, { uniqueId: alice.uniqueId, ...appUserReferralsQuery.parse({ direction: "given" }) });
    expect(given.totalCount).toBe(5);
    expect(given.items.every((i) => i.referrerId === "alice")).toBe(true);
    const referee = await getAppUserByClientId(t.db, f.org.id, f.project.id, people[0]!.refereeId);
    const received = await listAppUserReferrals(t.db, f.org.id, f.project.id, { uniqueId: referee.uniqueId, ...appUserReferralsQuery.parse({ direction: "received" }) });
    expect(received.items.map((i) => i.referrerId).sort()).toEqual(["alice", "bob"]);
    expect((await listAppUserReferrals(t.db, f.org.id, f.project.id, { uniqueId: alice.uniqueId, ...appUserReferralsQuery.parse({ direction: "received" }) })).totalCount).toBe(0);
  });

  it("rejects a bad status or direction and 404s foreign ids", async () => {
    expect(referralListQuery.safeParse({ status: "Done" }).error?.issues[0]?.path).toEqual(["status"]);
    expect(referralListQuery.safeParse({ pageSize: 500 }).error?.issues[0]?.path).toEqual(["pageSize"]);
    const alice = await getAppUserByClientId(t.db, f.org.id, f.project.id, "alice");
    expect(appUserReferralsQuery.safeParse({ direction: "sideways" }).error?.issues[0]?.path).toEqual(["direction"]);
    expect((await domainError(listReferrals(t.db, foreign.org.id, f.project.id, referralListQuery.parse({})))).kind).toBe("not_found");
    const foreignUser = listAppUserReferrals(t.db, main.org.id, main.project.id, { uniqueId: alice.uniqueId, ...appUserReferralsQuery.parse({ direction: "given" }) });
    expect((await domainError(foreignUser)).kind).toBe("not_found");
  });
});
