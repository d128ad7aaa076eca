import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { addDays, dayOf } from "@/lib/schemas/stats";
import { closeDays } from "@/server/domain/stats/open-days";
import { getProjectOverview } from "@/server/domain/stats/get-project-overview";
import { statsWindow } from "@/server/domain/stats/stats-window";
import { createTestDb, type TestDb } from "@/test/db";
import { createAppUserOverRest, createOrgWithApiKey, createProjectOverRest, restClient, type RestClient, trackOverRest } from "@/test/rest";

/*
 * A reward and an arrival write no day roll-up (migration 20261130000000_open_days_counted_from_rows):
 * an open day's tracked items, rewards and Claimed events are counted from the rows when read, and
 * closeDays counts a day into the roll-ups once it has ended. The figures must be the same before
 * and after, and a change to a day's rows while it closes must be counted exactly once. The closing is
 * one row for the whole database, so each test closes days after the previous one's.
 */
let t: TestDb;
let call: RestClient;
let organizationId: string;
const today = dayOf(new Date());

beforeAll(async () => {
  t = await createTestDb();
  const mine = await createOrgWithApiKey(t.db);
  organizationId = mine.org.id;
  call = restClient(t.db, mine.apiKey);
});
afterAll(() => t?.drop());

const totals = async (project: string, day: string) => (await call("GET", `/projects/${project}/stats?from=${day}&to=${day}`)).json.totals;
const overview = (project: string, day: string) => getProjectOverview(t.db, organizationId, project, statsWindow({ from: day, to: day }));
const rollups = async (project: string) => ({
  referralDays: (await t.db.referralDay.findMany({ where: { projectId: project } })).map((d) => ({ day: dayOf(d.day), tracked: d.tracked, completed: d.completed, failed: d.failed })),
  claimedEvents: (await t.db.rewardEventDay.findMany({ where: { projectId: project, outcome: "Claimed" } })).map((e) => ({ day: dayOf(e.day), eventName: e.eventName, count: e.count })),
});
const sum = (rows: { tracked: number; completed: number; failed: number }[]) =>
  rows.reduce((s, r) => ({ tracked: s.tracked + r.tracked, completed: s.completed + r.completed, failed: s.failed + r.failed }), { tracked: 0, completed: 0, failed: 0 });

describe("a day's figures", () => {
  it("are counted from the rows while the day is open, and from the roll-ups once it is closed, the same", async () => {
    const project = await createProjectOverRest(call, "Open days");
    const referrer = await createAppUserOverRest(call, project, "open-referrer");
    const items = [];
    for (const referee of ["open-a", "open-b", "open-c"]) items.push((await trackOverRest(call, project, referrer, referee)).trackingId);
    const again = await trackOverRest(call, project, referrer, "open-a");
    const reward = (trackingId: string) => call("POST", `/projects/${project}/referrals/reward`, { body: { ReferralTrackingId: trackingId, EventName: "purchase" } });
    expect((await reward(items[0]!)).json).toMatchObject({ rewardClaimed: true });
    expect((await reward(items[1]!)).json).toMatchObject({ rewardClaimed: true });
    // The same referee again: refused, the item Failed (trigger-kept on every day).
    expect((await reward(again.trackingId)).json).toMatchObject({ rewardClaimed: false, status: "Failed" });

    const expected = { tracked: 4, completed: 2, failed: 1 };
    expect(await totals(project, today)).toMatchObject(expected);
    const before = await overview(project, today);
    expect(before.rewardEvents.find((e) => e.eventName === "purchase")).toMatchObject({ claimed: 2, refused: 1 });
    expect(before.topReferrers).toEqual([{ uniqueId: referrer.uniqueId, clientProvidedId: "open-referrer", rewards: 2 }]);
    // Neither the arrivals nor the claims wrote a roll-up: only the failure did.
    const open = await rollups(project);
    expect(sum(open.referralDays)).toEqual({ tracked: 0, completed: 0, failed: 1 });
    expect(open.claimedEvents).toEqual([]);

    const tomorrow = addDays(today, 1);
    expect(await closeDays(t.db, tomorrow)).toBe(tomorrow);
    const closed = await rollups(project);
    expect(sum(closed.referralDays)).toEqual(expected);
    expect(closed.claimedEvents).toEqual([{ day: today, eventName: "purchase", count: 2 }]);
    expect(await totals(project, today)).toMatchObject(expected);
    const after = await overview(project, today);
    expect(after.rewardEvents).toEqual(before.rewardEvents);
    expect(after.topReferrers).toEqual(before.topReferrers);

    // A closed day is closed once: closing again, or earlier, changes nothing.
    expect(await closeDays(t.db, tomorrow)).toBe(tomorrow);
    expect(await closeDays(t.db, today)).toBe(tomorrow);
    expect(await rollups(project)).toEqual(closed);

    // A closed day's rows still move its figures through the triggers: a reward deleted (as a
    // revocation does), an item deleted, an item written with an earlier day's time (more than an
    // hour before now: a row of the current time skips the trigger, its day being open outside tests).
    await t.db.rewardHistory.delete({ where: { trackingId: items[1]! } });
    await t.db.referralTracking.delete({ where: { id: items[2]! } });
    expect(await totals(project, today)).toMatchObject({ tracked: 3, completed: 1, failed: 1 });
    const yesterday = addDays(today, -1);
    const campaign = await t.db.campaign.findUniqueOrThrow({ where: { projectId: project } });
    const late = await t.db.appUser.create({ data: { projectId: project, clientProvidedId: "open-late", referralCode: "LATE01" } });
    await t.db.referralTracking.create({
      data: { projectId: project, campaignId: campaign.id, referrerId: referrer.uniqueId, refereeId: late.id, referralCode: referrer.referralCode, createdAt: new Date(`${yesterday}T12:00:00.000Z`) },
    });
    expect(await totals(project, yesterday)).toMatchObject({ tracked: 1, completed: 0, failed: 0 });
    expect(sum((await rollups(project)).referralDays)).toEqual({ tracked: 4, completed: 1, failed: 1 });
  });
});

describe("closing a day", () => {
  it.skipIf(!inject("templateDatabase"))("waits for a change to the day's rows in flight, and counts it once", { timeout: 30_000 }, async () => {
    // Days after the ones the test above closed: rows written now with later times land in open days.
    const day = addDays(today, 3);
    const project = await createProjectOverRest(call, "Closing");
    const campaign = await t.db.campaign.findUniqueOrThrow({ where: { projectId: project } });
    const referrer = await createAppUserOverRest(call, project, "closing-referrer");
    const ids: string[] = [];
    for (const name of ["closing-a", "closing-b", "closing-c"]) {
      const referee = await t.db.appUser.create({ data: { projectId: project, clientProvidedId: name, referralCode: name.slice(-1).toUpperCase() + "CLOSE" } });
      const item = await t.db.referralTracking.create({
        data: { projectId: project, campaignId: campaign.id, referrerId: referrer.uniqueId, refereeId: referee.id, referralCode: referrer.referralCode, createdAt: new Date(`${day}T12:00:00.000Z`) },
      });
      ids.push(item.id);
    }
    expect(await totals(project, day)).toMatchObject({ tracked: 3 });

    // A delete of one of the day's items, in a transaction left open while the day closes.
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let deleted!: () => void;
    const deleting = new Promise<void>((resolve) => (deleted = resolve));
    const deleter = t.db.$transaction(
      async (tx) => {
        await tx.referralTracking.delete({ where: { id: ids[0]! } });
        deleted();
        await held;
      },
      { timeout: 20_000 },
    );
    await deleting;
    let closed = false;
    const closing = closeDays(t.db, addDays(day, 1)).finally(() => (closed = true));
    // The closing waits for the delete (or, were it not to, has counted without it): then the delete commits.
    const waiting = async () => {
      while (!closed) {
        const [row] = await t.db.$queryRaw<[{ n: number }]>`
          SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE "datname" = current_database() AND "wait_event_type" = 'Lock' AND "query" LIKE '%referloop_close_days%'`;
        if (row.n > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await Promise.race([closing, waiting()]);
    commit();
    await deleter;
    expect(await closing).toBe(addDays(day, 1));
    const { referralDays } = await rollups(project);
    expect(sum(referralDays.filter((d) => d.day === day))).toMatchObject({ tracked: 2 });
    expect(await totals(project, day)).toMatchObject({ tracked: 2 });
    // A change after the closing goes to the roll-up.
    await t.db.referralTracking.delete({ where: { id: ids[1]! } });
    expect(await totals(project, day)).toMatchObject({ tracked: 1 });
  });
});
