import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RewardRulesPatch } from "@/lib/schemas/reward-rules";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { updateCampaign } from "@/server/domain/campaigns/update-campaign";
import { DomainError } from "@/server/domain/errors";
import { reportRewardEvent } from "@/server/domain/referrals/report-reward-event";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { decideReview } from "@/server/domain/reviews/decide-review";
import { listReviews } from "@/server/domain/reviews/list-reviews";
import { releaseEndedHolds } from "@/server/domain/reviews/release-ended-holds";
import { createTestDb, type TestDb } from "@/test/db";
import { recordingScheduler } from "@/test/config";
import { countedReferrals, createOrgWithProject } from "@/test/fixtures";
import { uniqueName } from "@/test/names";
import { recordSightings } from "./sightings";

/*
 * The campaign's reward rules through the one reward service, against the real database, each rule on
 * and off at its boundary, with the clock the reward path is given (reportRewardEvent's `now`).
 */

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t?.drop());

const DAY = 24 * 60 * 60 * 1000;

/** A fresh project (its own campaign, so its own rules) with two webhooks. */
async function program(rules?: RewardRulesPatch) {
  const f = await createOrgWithProject(t.db);
  for (const name of ["one", "two"]) {
    await t.db.webhook.create({
      data: { projectId: f.project.id, campaignId: f.campaign.id, name, url: `https://hooks.example.com/${name}`, secretEncrypted: "x", secretHint: "x" },
    });
  }
  if (rules) await updateCampaign(t.db, f.org.id, f.project.id, { rewardRules: rules });
  const outbox = recordingScheduler();
  const target = { organizationId: f.org.id, projectId: f.project.id };
  return {
    f,
    outbox,
    target,
    user: async (prefix: string, attributes?: Record<string, string>) =>
      (await getOrCreateAppUser(t.db, f.project.id, { clientProvidedId: uniqueName(prefix), attributes })).user,
    track: async (referrer: { referralCode: string }, refereeId: string) =>
      (await trackReferral(t.db, f.org.id, f.project.id, { referralCode: referrer.referralCode, refereeId })).referralTrackingId,
    report: (trackingId: string, now?: Date) => reportRewardEvent({ db: t.db, outbox, now: now && (() => now) }, target, { referralTrackingId: trackingId, eventName: "purchase" }),
    setRules: (patch: RewardRulesPatch) => updateCampaign(t.db, f.org.id, f.project.id, { rewardRules: patch }),
  };
}
type Program = Awaited<ReturnType<typeof program>>;

/** A new referee of `referrer`, tracked: its tracking id. */
async function referee(p: Program, referrer: { referralCode: string }, attributes?: Record<string, string>) {
  const user = await p.user("referee", attributes);
  return p.track(referrer, user.clientProvidedId);
}

const status = async (trackingId: string) => t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId }, select: { status: true, failureReason: true } });
const deliveries = (trackingId: string) => t.db.delivery.count({ where: { trackingId } });

describe("no rules (the default)", () => {
  it("answers the default rules on the campaign and claims as the spec says", async () => {
    const p = await program();
    const campaign = await t.db.campaign.findUniqueOrThrow({ where: { id: p.f.campaign.id } });
    expect(campaign.rewardRules).toEqual({});
    const referrer = await p.user("referrer");
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await p.report(await referee(p, referrer, { email: "x@mailinator.com" })));
    expect(results.every((r) => r.rewardClaimed)).toBe(true);
    expect(await t.db.rewardReview.count()).toBe(0);
  });
});

describe("maxRewardsPerReferrer", () => {
  it("lifetime: the Nth reward is granted, the N+1th refused (referrer_cap_reached); removing the cap lets the next through", async () => {
    const p = await program({ maxRewardsPerReferrer: { lifetime: 2 } });
    const referrer = await p.user("referrer");
    const other = await p.user("other-referrer");
    expect((await p.report(await referee(p, referrer))).rewardClaimed).toBe(true);
    expect((await p.report(await referee(p, referrer))).rewardClaimed).toBe(true);
    const third = await referee(p, referrer);
    expect(await p.report(third)).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "referrer_cap_reached" });
    expect(await status(third)).toEqual({ status: "Failed", failureReason: "referrer_cap_reached" });
    expect(await deliveries(third)).toBe(0);
    // Another referrer has a cap of their own.
    expect((await p.report(await referee(p, other))).rewardClaimed).toBe(true);
    await p.setRules({ maxRewardsPerReferrer: {} });
    expect((await p.report(await referee(p, referrer))).rewardClaimed).toBe(true);
    expect(await countedReferrals(t.db, referrer.id)).toBe(3);
  });

  it("perDay counts in UTC days: the cap is full at 23:59:59.999 and free again at 00:00 UTC", async () => {
    const p = await program({ maxRewardsPerReferrer: { perDay: 2 } });
    const referrer = await p.user("referrer");
    const late = new Date("2026-12-01T23:59:59.999Z");
    expect((await p.report(await referee(p, referrer), new Date("2026-12-01T00:00:00.000Z"))).rewardClaimed).toBe(true);
    expect((await p.report(await referee(p, referrer), late)).rewardClaimed).toBe(true);
    expect((await p.report(await referee(p, referrer), late)).reason).toBe("referrer_cap_reached");
    expect((await p.report(await referee(p, referrer), new Date("2026-12-02T00:00:00.000Z"))).rewardClaimed).toBe(true);
    const claimed = await t.db.rewardHistory.findMany({ where: { referrerId: referrer.id }, orderBy: { claimedAt: "asc" }, select: { claimedAt: true } });
    expect(claimed.map((c) => c.claimedAt.toISOString())).toEqual(["2026-12-01T00:00:00.000Z", "2026-12-01T23:59:59.999Z", "2026-12-02T00:00:00.000Z"]);
  });

  it("perMonth counts in UTC calendar months", async () => {
    const p = await program({ maxRewardsPerReferrer: { perMonth: 1 } });
    const referrer = await p.user("referrer");
    expect((await p.report(await referee(p, referrer), new Date("2026-11-30T23:59:59.999Z"))).rewardClaimed).toBe(true);
    expect((await p.report(await referee(p, referrer), new Date("2026-11-30T23:59:59.999Z"))).reason).toBe("referrer_cap_reached");
    expect((await p.report(await referee(p, referrer), new Date("2026-12-01T00:00:00.000Z"))).rewardClaimed).toBe(true);
  });

  it("holds under concurrency: 12 referees of one referrer rewarded at once against a cap of 3 give exactly 3 rewards", async () => {
    const p = await program({ maxRewardsPerReferrer: { lifetime: 3 } });
    const referrer = await p.user("referrer");
    const items: string[] = [];
    for (let i = 0; i < 12; i++) items.push(await referee(p, referrer));
    const results = await Promise.all(items.map((id) => p.report(id)));
    expect(results.filter((r) => r.rewardClaimed)).toHaveLength(3);
    expect(results.filter((r) => r.reason === "referrer_cap_reached")).toHaveLength(9);
    expect(await t.db.rewardHistory.count({ where: { referrerId: referrer.id } })).toBe(3);
    expect(await countedReferrals(t.db, referrer.id)).toBe(3);
    expect(await t.db.delivery.count({ where: { projectId: p.f.project.id } })).toBe(6);
  });
});

describe("disposableEmail", () => {
  it("off claims, review holds, block refuses; judged on the referee's email attribute, subdomains included", async () => {
    const p = await program();
    const referrer = await p.user("referrer");
    const disposable = { email: "someone@mailinator.com" };
    expect((await p.report(await referee(p, referrer, disposable))).rewardClaimed).toBe(true);

    await p.setRules({ disposableEmail: "block" });
    const blocked = await referee(p, referrer, { email: "someone@sub.mailinator.com" });
    expect(await p.report(blocked)).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "disposable_email" });
    expect((await p.report(await referee(p, referrer, { email: "ada@example.org" }))).rewardClaimed).toBe(true);
    expect((await p.report(await referee(p, referrer))).rewardClaimed).toBe(true); // no email attribute

    await p.setRules({ disposableEmail: "review" });
    const held = await referee(p, referrer, disposable);
    expect(await p.report(held)).toEqual({ rewardClaimed: false, status: "Pending", reason: "held_for_review", referralTrackingId: held });
    expect(await status(held)).toEqual({ status: "Pending", failureReason: null });
    expect(await deliveries(held)).toBe(0);
    expect(await t.db.rewardReview.findUniqueOrThrow({ where: { trackingId: held } })).toMatchObject({ reasons: ["disposable_email"], holdUntil: null, eventName: "purchase" });
  });
});

describe("sameDevice", () => {
  const T = new Date("2026-11-20T12:00:00.000Z");
  const at = (hours: number) => new Date(T.getTime() + hours * 60 * 60 * 1000);

  it("blocks a referee seen from the referrer's address within 24 hours of it, not 24 hours and a moment later; off claims", async () => {
    const p = await program({ sameDevice: "block" });
    const referrer = await p.user("referrer");
    await recordSightings(t.db, p.f.project.id, referrer.id, [{ kind: "ip", value: "203.0.113.7" }], T);
    const near = await p.user("near");
    await recordSightings(t.db, p.f.project.id, near.id, [{ kind: "ip", value: "203.0.113.7" }], at(24));
    const nearItem = await p.track(referrer, near.clientProvidedId);
    expect(await p.report(nearItem)).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "same_device" });

    const far = await p.user("far");
    await recordSightings(t.db, p.f.project.id, far.id, [{ kind: "ip", value: "203.0.113.7" }], new Date(at(24).getTime() + 1));
    expect((await p.report(await p.track(referrer, far.clientProvidedId))).rewardClaimed).toBe(true);

    const elsewhere = await p.user("elsewhere");
    await recordSightings(t.db, p.f.project.id, elsewhere.id, [{ kind: "ip", value: "198.51.100.1" }], T);
    expect((await p.report(await p.track(referrer, elsewhere.clientProvidedId))).rewardClaimed).toBe(true);

    await p.setRules({ sameDevice: "off" });
    const again = await p.user("again");
    await recordSightings(t.db, p.f.project.id, again.id, [{ kind: "ip", value: "203.0.113.7" }], T);
    expect((await p.report(await p.track(referrer, again.clientProvidedId))).rewardClaimed).toBe(true);
  });

  it("matches a complete device fingerprint, and a landing-page click attributed to the referee; review holds", async () => {
    const p = await program({ sameDevice: "review" });
    const referrer = await p.user("referrer");
    const device = "iOS|18.1|390x844@3|Europe/Berlin|de-DE";
    await recordSightings(t.db, p.f.project.id, referrer.id, [{ kind: "device", value: device }], T);
    const phone = await p.user("phone");
    await recordSightings(t.db, p.f.project.id, phone.id, [{ kind: "device", value: device }, { kind: "ip", value: "198.51.100.9" }], at(2));
    const held = await p.track(referrer, phone.clientProvidedId);
    expect((await p.report(held)).reason).toBe("held_for_review");
    expect((await t.db.rewardReview.findUniqueOrThrow({ where: { trackingId: held } })).reasons).toEqual(["same_device"]);

    await recordSightings(t.db, p.f.project.id, referrer.id, [{ kind: "ip", value: "192.0.2.44" }], T);
    const clicked = await p.user("clicked");
    await t.db.linkClick.create({
      data: { projectId: p.f.project.id, referralCode: referrer.referralCode, ipAddress: "192.0.2.44", createdAt: at(-3), matchedAt: at(-2), matchedAppUserId: clicked.id },
    });
    expect((await p.report(await p.track(referrer, clicked.clientProvidedId))).reason).toBe("held_for_review");
  });
});

describe("holdDays and the review queue", () => {
  it("holds a passing reward for holdDays, answers held_for_review until then, and completes it when the hold ends", async () => {
    const p = await program({ holdDays: 3 });
    const referrer = await p.user("referrer");
    const now = new Date("2026-11-10T09:00:00.000Z");
    const item = await referee(p, referrer);
    expect((await p.report(item, now)).reason).toBe("held_for_review");
    expect((await p.report(item, now)).reason).toBe("held_for_review");
    const ends = new Date(now.getTime() + 3 * DAY);
    const queue = await listReviews(t.db, p.f.org.id, p.f.project.id, { page: 1, pageSize: 20 });
    expect(queue).toMatchObject({ totalCount: 1, hasNextPage: false, items: [{ trackingId: item, reasons: ["hold"], holdUntil: ends.toISOString(), event: "purchase" }] });
    expect(await t.db.rewardEvent.count({ where: { trackingId: item, outcome: "Recorded", reason: "held_for_review" } })).toBe(2);

    expect(await releaseEndedHolds({ db: t.db, outbox: p.outbox }, new Date(ends.getTime() - 1))).toBe(0);
    expect(await status(item)).toEqual({ status: "Pending", failureReason: null });
    expect(await releaseEndedHolds({ db: t.db, outbox: p.outbox }, ends)).toBe(1);
    expect(await status(item)).toEqual({ status: "Completed", failureReason: null });
    expect((await t.db.rewardHistory.findUniqueOrThrow({ where: { trackingId: item } })).claimedAt).toEqual(ends);
    expect(await deliveries(item)).toBe(2);
    expect(p.outbox.enqueued).toHaveLength(2);
    expect(await t.db.rewardReview.count({ where: { trackingId: item } })).toBe(0);
    expect((await p.report(item)).reason).toBe("already_completed");
    // Nobody decided: no audit entry.
    expect(await t.db.auditEntry.count({ where: { organizationId: p.f.org.id } })).toBe(0);
  });

  it("completes a hold longer than the attribution window: the item is judged as of when it was held", async () => {
    const p = await program({ holdDays: 60 });
    const referrer = await p.user("referrer");
    const item = await referee(p, referrer);
    expect((await p.report(item)).reason).toBe("held_for_review");
    expect(await releaseEndedHolds({ db: t.db, outbox: p.outbox }, new Date(Date.now() + 61 * DAY))).toBe(1);
    expect((await status(item)).status).toBe("Completed");
  });

  const actor = { type: "user" as const, id: "00000000-0000-4000-8000-000000000001", label: "reviewer@example.com" };

  it("20 concurrent approvals of one held reward: one completes it (one delivery per webhook), the others answer 409", async () => {
    const p = await program({ disposableEmail: "review" });
    const referrer = await p.user("referrer");
    const item = await referee(p, referrer, { email: "a@mailinator.com" });
    expect((await p.report(item)).reason).toBe("held_for_review");
    const settled = await Promise.allSettled(Array.from({ length: 20 }, () => decideReview({ db: t.db, outbox: p.outbox }, p.target, item, "approve", actor)));
    const approved = settled.filter((s) => s.status === "fulfilled");
    expect(approved).toHaveLength(1);
    expect(approved[0]!.value).toMatchObject({ rewardClaimed: true, status: "Completed", referralTrackingId: item });
    for (const s of settled.filter((x) => x.status === "rejected")) {
      expect(s.reason).toBeInstanceOf(DomainError);
      expect((s.reason as DomainError).kind).toBe("conflict");
    }
    expect(await deliveries(item)).toBe(2);
    expect(p.outbox.enqueued).toHaveLength(2);
    expect(await t.db.rewardHistory.count({ where: { trackingId: item } })).toBe(1);
    expect(await countedReferrals(t.db, referrer.id)).toBe(1);
    const audit = await t.db.auditEntry.findMany({ where: { organizationId: p.f.org.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "review.approve", targetId: item, actorLabel: "reviewer@example.com" });
  });

  it("deny fails the item (denied_in_review) and delivers nothing; deciding again is a 409, another project's item a 404", async () => {
    const p = await program({ disposableEmail: "review" });
    const referrer = await p.user("referrer");
    const item = await referee(p, referrer, { email: "a@mailinator.com" });
    await p.report(item);
    expect(await decideReview({ db: t.db, outbox: p.outbox }, p.target, item, "deny", actor)).toMatchObject({
      rewardClaimed: false,
      status: "Failed",
      reason: "denied_in_review",
    });
    expect(await status(item)).toEqual({ status: "Failed", failureReason: "denied_in_review" });
    expect(await deliveries(item)).toBe(0);
    await expect(decideReview({ db: t.db, outbox: p.outbox }, p.target, item, "approve", actor)).rejects.toMatchObject({ kind: "conflict" });
    const other = await program();
    await expect(decideReview({ db: t.db, outbox: other.outbox }, other.target, item, "approve", actor)).rejects.toMatchObject({ kind: "not_found" });
    const notHeld = await referee(p, referrer);
    await expect(decideReview({ db: t.db, outbox: p.outbox }, p.target, notHeld, "deny", actor)).rejects.toMatchObject({ kind: "conflict" });
  });

  it("approval counts the caps at approval time", async () => {
    const p = await program({ disposableEmail: "review", maxRewardsPerReferrer: { lifetime: 1 } });
    const referrer = await p.user("referrer");
    const held = await referee(p, referrer, { email: "a@mailinator.com" });
    expect((await p.report(held)).reason).toBe("held_for_review");
    expect((await p.report(await referee(p, referrer))).rewardClaimed).toBe(true);
    expect(await decideReview({ db: t.db, outbox: p.outbox }, p.target, held, "approve", actor)).toMatchObject({ status: "Failed", reason: "referrer_cap_reached" });
    expect(await t.db.rewardReview.count({ where: { trackingId: held } })).toBe(0);
  });
});
